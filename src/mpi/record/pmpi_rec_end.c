/* pmpi_rec_end.c - the recorder at MPI_Finalize (docs/mpi.md, "Recording a
 * job's communication"): takes this process's counts from the counters
 * (pmpi_rec.c), closes and aligns the phases (pmpi_rec_phase.c), agrees
 * with every process on whether anything was lost to memory, and writes
 * the matrix, its account and the phases (pmpi_rec_write.c).  Above the
 * files it strings together. */
#include "pmpi_rec.h"
#include "../lib/mpi_int.h"

void tm__rec_finalize(void)
{
    tm__rec_out o;
    int rank, lost, nomem;
    if (!tm__rec_take(&o, &rank, &lost))
        return;
    tm__rec_phase_close(); /* the point-to-point traffic after the last collective */
    o.phase_waits = tm__rec_phase_align();
    lost = lost || tm__rec_phase_lost();
    PMPI_Allreduce(&lost, &nomem, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (nomem) {
        tm__mpi_warn(rank, "TOPOMAP_RECORD: out of memory while recording; no file "
                           "written");
    } else {
        tm__rec_write(&o);
    }
    tm__rec_phase_free();
    tm__rec_free();
}
