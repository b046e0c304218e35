--[[
job_submit.lua - topomap's submit hook for Slurm's job_submit/lua plugin
(docs/slurm.md "The submit hook").

A job that asks for it with a comment tag

    sbatch -N 16 --ntasks-per-node=32 --comment=topomap:stencil3d:4MiB job.sh
    sbatch -N 8 --comment=topomap:/home/me/app.mtx job.sh  (or a path relative
                                                          to the job's folder)

gets its nodes from `topomap alloc` (the least predicted time among the free
nodes, with the running jobs' traffic): the hook sets the job's required
node list (scontrol show job: ReqNodeList) to exactly the nodes topomap
names.  Nodes the hook gave in the last `recent` seconds are excluded (the
snapshot may not show them taken yet).  Any other job is not touched.  The hook never breaks a submission:
when the tag cannot be used, the snapshot is missing or too old, topomap
fails or does not answer within `timeout` seconds, the job goes on to
Slurm's own choice and the reason is logged in slurmctld's log
("topomap: ... left to Slurm: ...").

Slurm runs job_submit/lua inside slurmctld, holding its job lock: the hook
must not call Slurm's commands (they would wait on the controller waiting
on the hook).  It reads a snapshot of the cluster's state that cron
refreshes (`topomap slurm snapshot DIR`, every minute), and `timeout` bounds
the time a submission waits for topomap.

Install (as root; docs/slurm.md):
  cp /usr/share/topomap/slurm/job_submit.lua /etc/slurm/job_submit.lua
  # settings beside it: /etc/slurm/topomap-hook.conf (key = value, below)
  # slurm.conf: JobSubmitPlugins=lua, then `scontrol reconfigure`
The settings are read at every submission, so a change needs no restart.
]]

-- defaults; /etc/slurm/topomap-hook.conf (beside this script) overrides them
local defaults = {
    topomap = "/usr/bin/topomap",     -- the topomap binary
    topology = "/etc/slurm/fabric.topo", -- the fabric: ibnetdiscover dump, .xml, ...
    node_name_map = "",               -- ibnetdiscover's GUID -> host name map, if any
    routing = "",                     -- topomap's --routing (minhop for OpenSM's min-hop, ...)
    slurm_topology = "",              -- the site's topology.conf for slurm-tree, if not topomap's
    state = "/var/lib/topomap/state", -- the snapshot folder (topomap slurm snapshot)
    max_age = 300,                    -- seconds: an older snapshot is not used
    timeout = 2,                      -- seconds a submission may wait for topomap
    recent = 120,                     -- seconds the hook's own picks stay excluded (the
                                      -- snapshot does not show them yet: two cron periods)
    options = "",                     -- more options for topomap alloc (e.g. --threads 2)
}

-- the nodes the hook gave since the snapshot could show them: {t, nodes}
-- (kept while slurmctld keeps this script loaded)
local recent = {}

local function script_dir()
    local src = debug.getinfo(1, "S").source
    return (src:sub(1, 1) == "@" and src:match("^@(.*)/[^/]*$")) or "/etc/slurm"
end

-- key = value lines; '#' starts a comment
local function settings()
    local conf = {}
    for k, v in pairs(defaults) do conf[k] = v end
    local f = io.open(script_dir() .. "/topomap-hook.conf", "r")
    if not f then return conf end
    for line in f:lines() do
        local k, v = line:gsub("#.*", ""):match("^%s*([%w_]+)%s*=%s*(.-)%s*$")
        if k and defaults[k] ~= nil then
            conf[k] = type(defaults[k]) == "number" and (tonumber(v) or defaults[k]) or v
        end
    end
    f:close()
    return conf
end

local function quote(s)
    return "'" .. tostring(s):gsub("'", "'\\''") .. "'"
end

local function set(v, none)
    return v ~= nil and v ~= none and v ~= slurm.NO_VAL and v ~= slurm.NO_VAL16
end

-- the tag of a comment: "topomap:<pattern or matrix file>" at its start or
-- after a blank or ','; nil when there is none
local function tag_of(comment)
    if type(comment) ~= "string" then return nil end
    return (" " .. comment):match("[%s,]topomap:([^%s,]+)")
end

-- the topomap alloc command for the job, or nil and why not
local function command(conf, job_desc, tag)
    local n = job_desc.min_nodes
    if not set(n) or n < 1 then
        return nil, "the job gives no node count (-N)"
    end
    if set(job_desc.max_nodes) and job_desc.max_nodes ~= n then
        return nil, "the job gives a range of node counts (-N min-max)"
    end
    if job_desc.req_nodes and job_desc.req_nodes ~= "" then
        return nil, "the job names its own nodes (-w)"
    end
    -- a user's words reach a shell: only the characters of patterns and paths
    if not tag:match("^[%w%._:/%+%-]+$") then
        return nil, "the tag has characters other than letters, digits and . _ : / + -"
    end
    local comm = tag
    local is_pattern = tag:match("^ring") or tag:match("^alltoall") or tag:match("^stencil3d")
    if not is_pattern and tag:sub(1, 1) ~= "/" and job_desc.work_dir then
        comm = job_desc.work_dir .. "/" .. tag
    end
    local args = {conf.topomap, "alloc", "--topology", conf.topology, "--slurm-state", conf.state,
                  "--slurm-state-max-age", conf.max_age, "--nodes", n, "--comm", comm}
    if conf.node_name_map ~= "" then
        args[#args + 1] = "--node-name-map"; args[#args + 1] = conf.node_name_map
    end
    if conf.routing ~= "" then
        args[#args + 1] = "--routing"; args[#args + 1] = conf.routing
    end
    if conf.slurm_topology ~= "" then
        args[#args + 1] = "--slurm-topology"; args[#args + 1] = conf.slurm_topology
    end
    if set(job_desc.ntasks_per_node) then
        args[#args + 1] = "--ppn"; args[#args + 1] = job_desc.ntasks_per_node
    elseif set(job_desc.num_tasks) and job_desc.num_tasks % n == 0 then
        args[#args + 1] = "--ppn"; args[#args + 1] = job_desc.num_tasks / n
    end
    if job_desc.partition and job_desc.partition ~= "" and not job_desc.partition:find(",") then
        args[#args + 1] = "--slurm-partition"; args[#args + 1] = job_desc.partition
    end
    local now, keep, exclude = os.time(), {}, {}
    for _, r in ipairs(recent) do
        if now - r.t <= conf.recent then
            keep[#keep + 1] = r
            exclude[#exclude + 1] = r.nodes
        end
    end
    recent = keep
    if #exclude > 0 then
        args[#args + 1] = "--exclude"; args[#args + 1] = table.concat(exclude, ",")
    end
    local words = {}
    for i, a in ipairs(args) do words[i] = quote(string.format("%s", a)) end
    -- timeout: TERM after `timeout` s, KILL 1 s later; the shell reports the
    -- exit status and the milliseconds
    return string.format("s=$(date +%%s%%N); /usr/bin/timeout -k 1 %s %s %s 2>&1; rc=$?; " ..
                         "echo \"topomap-exit $rc $(( ($(date +%%s%%N) - s) / 1000000 ))\"",
                         tostring(conf.timeout), table.concat(words, " "), conf.options)
end

local function pick(job_desc)
    local tag = tag_of(job_desc.comment)
    if not tag then
        return nil -- not asked: the job is not touched, and nothing is logged
    end
    local who = string.format("job %s of user %s", tostring(job_desc.name or "?"),
                              tostring(job_desc.user_id or "?"))
    local conf = settings()
    local cmd, why = command(conf, job_desc, tag)
    if not cmd then
        slurm.log_info("topomap: %s (topomap:%s): left to Slurm: %s", who, tag, why)
        return nil
    end
    local p = io.popen(cmd, "r")
    if not p then
        slurm.log_info("topomap: %s: left to Slurm: cannot run %s", who, conf.topomap)
        return nil
    end
    local out = p:read("*a") or ""
    p:close()
    local body, rc, ms = out:match("^(.-)\n?topomap%-exit (%d+) (%-?%d+)%s*$")
    rc = tonumber(rc)
    local first = body and body:match("^[^\n]*") or ""
    if rc == 0 and first:match("^[%w%._%-%[%],]+$") then
        job_desc.req_nodes = first
        recent[#recent + 1] = {t = os.time(), nodes = first}
        slurm.log_info("topomap: %s (topomap:%s): nodes %s (topomap alloc took %s ms)", who, tag,
                       first, ms)
        return first
    end
    local reason
    if rc == 124 or rc == 137 then
        reason = string.format("topomap alloc gave no answer within %s s", tostring(conf.timeout))
    elseif rc then
        reason = string.format("topomap alloc failed (exit %d): %s", rc, first)
    else
        reason = "topomap alloc printed nothing readable"
    end
    slurm.log_info("topomap: %s (topomap:%s): left to Slurm: %s (%s ms)", who, tag, reason,
                   tostring(ms))
    return nil
end

function slurm_job_submit(job_desc, part_list, submit_uid)
    local ok, err = pcall(pick, job_desc)
    if not ok then
        slurm.log_error("topomap: left to Slurm: the hook failed: %s", tostring(err))
    end
    return slurm.SUCCESS
end

function slurm_job_modify(job_desc, job_rec, part_list, modify_uid)
    return slurm.SUCCESS
end
