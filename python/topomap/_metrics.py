"""The figures of a mapping (tm_metrics) as a Python object.

Every field of tm_metrics becomes an attribute of the same name, read from
the struct's declaration (made from include/topomap/metrics.h by
_cdefgen.py), so a figure the library adds (a new field of the header's
struct) appears here once the module is installed again, without other
changes.  Arrays become numpy arrays; the link-load pointer
becomes `link_load` (n_links loads, or None when not kept).
"""
import numpy as np

from ._lib import ffi

_POINTERS = {"link_load"}  # pointer fields handled by hand
_TRIM = {"max_links": "n_max_links"}  # fixed arrays of which only a prefix is valid


def _fields():
    return [name for name, _ in ffi.typeof("tm_metrics").fields]


FIELDS = _fields()


class Metrics:
    """Exact quality figures of one mapping (docs/metrics.md): max_congestion
    (volume / (Gbit/s) on the most loaded directed link), avg_dilation
    (volume-weighted hops), qap_J, hosts_used, messages, total_volume,
    inter_host_volume, max_links (directed link ids at the maximum),
    max_dilation, congestion_sum_sq, links_used, hist (congestion
    histogram), approximate, time_s, est_time_s, time_lower_bound_s, ...,
    and link_load when kept.  evaluate(..., mapping=...) also sets
    `consecutive` (the consecutive placement's Metrics), `change_pct`
    (figure -> percent change against it) and `baseline` ("alloc", or
    "mapping_hosts" without an allocation: the mapping's own hosts) when the
    tasks fit the allocation; otherwise they are None.  evaluate() also sets
    `bounds` (the lower bounds on every mapping of the job on that
    allocation, with the keys of `eval --json`'s "bounds") and `gap` (value
    / bound per figure; None over a bound of 0): docs/bounds.md."""

    consecutive = None
    change_pct = None
    baseline = None
    bounds = None
    gap = None

    def __init__(self, m, net=None):
        self._net = net
        self._fields = []
        for name in FIELDS:
            if name in _POINTERS:
                continue
            val = getattr(m, name)
            ctype = ffi.typeof("tm_metrics").fields[FIELDS.index(name)][1].type
            if ctype.kind == "array":
                arr = np.array(list(val))
                if name in _TRIM:
                    arr = arr[: getattr(m, _TRIM[name])]
                val = arr
            setattr(self, name, val)
            self._fields.append(name)
        n = getattr(m, "n_links", 0)
        if m.link_load != ffi.NULL and n > 0:
            self.link_load = np.frombuffer(ffi.buffer(m.link_load, 8 * n), np.float64).copy()
        else:
            self.link_load = None

    def as_dict(self):
        """Every figure by its tm_metrics name (arrays as lists)."""
        return {k: (v.tolist() if isinstance(v, np.ndarray) else v)
                for k, v in ((k, getattr(self, k)) for k in self._fields)}

    @property
    def max_congestion_links(self):
        """(from, to) vertex names of the listed links at the maximum."""
        if self._net is None:
            return []
        tail, head, _ = self._net.links()
        return [(self._net.name(tail[l]), self._net.name(head[l])) for l in self.max_links]

    def link_loads(self, all_links=False):
        """The per-link loads as a pandas DataFrame (columns link, from, to,
        capacity, load, congestion), loaded links only unless all_links, as
        `topomap eval --export-loads F.csv` writes them."""
        if self.link_load is None:
            raise ValueError("link loads were not kept (evaluate(..., link_loads=True))")
        import pandas as pd
        tail, head, cap = self._net.links()
        names = np.array(self._net.names, dtype=object)
        ids = np.arange(len(cap)) if all_links else np.nonzero(self.link_load > 0)[0]
        return pd.DataFrame({"link": ids, "from": names[tail[ids]], "to": names[head[ids]],
                             "capacity": cap[ids], "load": self.link_load[ids],
                             "congestion": self.link_load[ids] / cap[ids]})

    def __repr__(self):
        if self._net is None:
            return "<topomap.Metrics J=%.10g>" % self.qap_J
        return "<topomap.Metrics max_congestion=%.6g avg_dilation=%.6g J=%.10g>" % (
            self.max_congestion, self.avg_dilation, self.qap_J)
