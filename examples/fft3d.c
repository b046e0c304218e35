/* fft3d.c - a 3D FFT with a pencil decomposition: the transposes are
 * all-to-alls inside the rows and the columns of a 2D process grid.
 *
 * An N^3 complex array is spread over a P1 x P2 grid (MPI_Dims_create; N
 * must be a power of two divisible by P1 and P2).  Rank (p1, p2) starts
 * with x-pencils (all x, y block p1, z block p2); FFT along x, all-to-all
 * in its row (ranks with the same p2) to y-pencils, FFT along y,
 * all-to-all in its column (same p1) to z-pencils, FFT along z; then the
 * inverse transform the same way back.  Each iteration is one forward and
 * one inverse transform (four all-to-alls); the result must equal the
 * input (max error printed, 1e-9 allowed).
 *
 * It prints the communication time (the all-to-alls only, summed per rank,
 * max over ranks) and, with TM_COMM_MATRIX=FILE, writes the bytes per pair
 * of ranks, and with TM_COMM_PHASES=FILE its phases (the row and the
 * column all-to-all, each twice per iteration; commstat.h).
 *   usage: fft3d [N (default 32)] [iterations (default 2)]
 * Exit 0 when the round trip is exact to 1e-9, 1 otherwise. */
#include <complex.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "commstat.h"

typedef double complex cplx;

/* In-place radix-2 FFT of n (a power of two) points; sign -1 forward. */
static void fft1(cplx *a, int n, int sign)
{
    for (int i = 1, j = 0; i < n; i++) {
        int bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j ^= bit;
        if (i < j) {
            cplx t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }
    for (int len = 2; len <= n; len <<= 1) {
        cplx w = cexp(sign * 2 * M_PI * I / len);
        for (int i = 0; i < n; i += len) {
            cplx wk = 1;
            for (int k = 0; k < len / 2; k++, wk *= w) {
                cplx u = a[i + k], v = a[i + k + len / 2] * wk;
                a[i + k] = u + v;
                a[i + k + len / 2] = u - v;
            }
        }
    }
}

static void fft_lines(cplx *a, long lines, int n, int sign)
{
    for (long l = 0; l < lines; l++)
        fft1(a + l * n, n, sign);
}

typedef struct fft {
    int N, P1, P2, p1, p2;
    long nb1, nb2; /* N / P1, N / P2 */
    MPI_Comm row, col;
    cplx *sbuf, *rbuf;
    double t;      /* time in the all-to-alls */
} fft;

static void alltoall(fft *f, long block, MPI_Comm comm)
{
    double t0 = MPI_Wtime();
    MPI_Alltoall(f->sbuf, (int)(2 * block), MPI_DOUBLE, f->rbuf, (int)(2 * block), MPI_DOUBLE,
                 comm);
    f->t += MPI_Wtime() - t0;
}

/* x-pencils A[z][y][x] (nb2 x nb1 x N) <-> y-pencils B[z][x][y] (nb2 x nb1 x N),
 * in the row: block q holds x in block q (to y-pencils) or y in block q. */
static void x_to_y(fft *f, const cplx *A, cplx *B)
{
    long nb = f->nb1, nz = f->nb2, blk = nz * nb * nb;
    for (int q = 0; q < f->P1; q++)
        for (long z = 0; z < nz; z++)
            for (long y = 0; y < nb; y++)
                for (long x = 0; x < nb; x++)
                    f->sbuf[q * blk + (z * nb + y) * nb + x] = A[(z * nb + y) * f->N + q * nb + x];
    alltoall(f, blk, f->row);
    for (int q = 0; q < f->P1; q++)
        for (long z = 0; z < nz; z++)
            for (long y = 0; y < nb; y++)
                for (long x = 0; x < nb; x++)
                    B[(z * nb + x) * f->N + q * nb + y] = f->rbuf[q * blk + (z * nb + y) * nb + x];
}

static void y_to_x(fft *f, const cplx *B, cplx *A)
{
    long nb = f->nb1, nz = f->nb2, blk = nz * nb * nb;
    for (int q = 0; q < f->P1; q++)
        for (long z = 0; z < nz; z++)
            for (long x = 0; x < nb; x++)
                for (long y = 0; y < nb; y++)
                    f->sbuf[q * blk + (z * nb + x) * nb + y] = B[(z * nb + x) * f->N + q * nb + y];
    alltoall(f, blk, f->row);
    for (int q = 0; q < f->P1; q++)
        for (long z = 0; z < nz; z++)
            for (long x = 0; x < nb; x++)
                for (long y = 0; y < nb; y++)
                    A[(z * nb + y) * f->N + q * nb + x] = f->rbuf[q * blk + (z * nb + x) * nb + y];
}

/* y-pencils B[z][x][y] (nb2 x nb1 x N) <-> z-pencils C[x][y][z] (nb1 x nb2 x N),
 * in the column: block q holds y in block q (to z-pencils) or z in block q. */
static void y_to_z(fft *f, const cplx *B, cplx *C)
{
    long nx = f->nb1, nb = f->nb2, blk = nb * nx * nb;
    for (int q = 0; q < f->P2; q++)
        for (long z = 0; z < nb; z++)
            for (long x = 0; x < nx; x++)
                for (long y = 0; y < nb; y++)
                    f->sbuf[q * blk + (z * nx + x) * nb + y] = B[(z * nx + x) * f->N + q * nb + y];
    alltoall(f, blk, f->col);
    for (int q = 0; q < f->P2; q++)
        for (long z = 0; z < nb; z++)
            for (long x = 0; x < nx; x++)
                for (long y = 0; y < nb; y++)
                    C[(x * nb + y) * f->N + q * nb + z] = f->rbuf[q * blk + (z * nx + x) * nb + y];
}

static void z_to_y(fft *f, const cplx *C, cplx *B)
{
    long nx = f->nb1, nb = f->nb2, blk = nb * nx * nb;
    for (int q = 0; q < f->P2; q++)
        for (long y = 0; y < nb; y++)
            for (long x = 0; x < nx; x++)
                for (long z = 0; z < nb; z++)
                    f->sbuf[q * blk + (y * nx + x) * nb + z] = C[(x * nb + y) * f->N + q * nb + z];
    alltoall(f, blk, f->col);
    for (int q = 0; q < f->P2; q++)
        for (long y = 0; y < nb; y++)
            for (long x = 0; x < nx; x++)
                for (long z = 0; z < nb; z++)
                    B[(z * nx + x) * f->N + q * nb + y] = f->rbuf[q * blk + (y * nx + x) * nb + z];
}

static double value(long x, long y, long z)
{
    return sin(0.1 * x + 0.01 * y * y) + cos(0.3 * z - 0.2 * x * y);
}

/* World ranks of comm's members and the bytes this rank sends to each in
 * one all-to-all of `block` complex values (itself excluded). */
static int add_peers(MPI_Comm comm, long block, double times, int *dst, double *bytes, int k)
{
    int n, me, *in, *out;
    MPI_Group g, w;
    MPI_Comm_size(comm, &n);
    MPI_Comm_rank(comm, &me);
    in = malloc((size_t)n * sizeof *in);
    out = malloc((size_t)n * sizeof *out);
    if (!in || !out)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (int i = 0; i < n; i++)
        in[i] = i;
    MPI_Comm_group(comm, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &w);
    MPI_Group_translate_ranks(g, n, in, w, out);
    for (int i = 0; i < n; i++)
        if (i != me) {
            dst[k] = out[i];
            bytes[k++] = times * block * sizeof(cplx);
        }
    MPI_Group_free(&g);
    MPI_Group_free(&w);
    free(in);
    free(out);
    return k;
}

int main(int argc, char **argv)
{
    fft f = {0};
    int me, np, iters = 2, dims[2] = {0, 0}, periods[2] = {0, 0}, c[2], k = 0, *dst;
    double err = 0, *bytes;
    MPI_Comm cart;
    cplx *A, *B, *C;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    f.N = argc > 1 ? atoi(argv[1]) : 32;
    if (argc > 2)
        iters = atoi(argv[2]);
    MPI_Dims_create(np, 2, dims);
    f.P1 = dims[0];
    f.P2 = dims[1];
    if (f.N < 2 || (f.N & (f.N - 1)) || f.N % f.P1 || f.N % f.P2 || iters < 1) {
        if (me == 0)
            fprintf(stderr, "fft3d: N=%d must be a power of two divisible by %d and %d\n", f.N,
                    f.P1, f.P2);
        MPI_Finalize();
        return 2;
    }
    /* world ranks in row-major grid order: no reordering */
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Cart_coords(cart, me, 2, c);
    f.p1 = c[0];
    f.p2 = c[1];
    MPI_Comm_split(MPI_COMM_WORLD, f.p2, f.p1, &f.row); /* same p2: varying p1 */
    MPI_Comm_split(MPI_COMM_WORLD, f.p1, f.p2, &f.col); /* same p1: varying p2 */
    f.nb1 = f.N / f.P1;
    f.nb2 = f.N / f.P2;
    long local = f.nb1 * f.nb2 * f.N;
    A = malloc((size_t)local * sizeof *A);
    B = malloc((size_t)local * sizeof *B);
    C = malloc((size_t)local * sizeof *C);
    f.sbuf = malloc((size_t)local * sizeof *f.sbuf);
    f.rbuf = malloc((size_t)local * sizeof *f.rbuf);
    if (!A || !B || !C || !f.sbuf || !f.rbuf)
        MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int it = 0; it < iters; it++) {
        for (long z = 0; z < f.nb2; z++)
            for (long y = 0; y < f.nb1; y++)
                for (long x = 0; x < f.N; x++)
                    A[(z * f.nb1 + y) * f.N + x] = value(x, f.p1 * f.nb1 + y, f.p2 * f.nb2 + z);
        fft_lines(A, f.nb1 * f.nb2, f.N, -1);
        x_to_y(&f, A, B);
        fft_lines(B, f.nb1 * f.nb2, f.N, -1);
        y_to_z(&f, B, C);
        fft_lines(C, f.nb1 * f.nb2, f.N, -1);
        fft_lines(C, f.nb1 * f.nb2, f.N, 1);
        z_to_y(&f, C, B);
        fft_lines(B, f.nb1 * f.nb2, f.N, 1);
        y_to_x(&f, B, A);
        fft_lines(A, f.nb1 * f.nb2, f.N, 1);
        for (long z = 0; z < f.nb2; z++)
            for (long y = 0; y < f.nb1; y++)
                for (long x = 0; x < f.N; x++) {
                    double d = cabs(A[(z * f.nb1 + y) * f.N + x] / ((double)f.N * f.N * f.N) -
                                    value(x, f.p1 * f.nb1 + y, f.p2 * f.nb2 + z));
                    err = d > err ? d : err;
                }
    }
    MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (me == 0)
        printf("fft3d: %d ranks (%dx%d), N=%d, %d round trips, max error %.3g\n", np, f.P1, f.P2,
               f.N, iters, err);
    comm_time_print("fft3d", f.t);
    dst = malloc((size_t)(f.P1 + f.P2) * sizeof *dst);
    bytes = malloc((size_t)(f.P1 + f.P2) * sizeof *bytes);
    if (!dst || !bytes)
        MPI_Abort(MPI_COMM_WORLD, 2);
    /* per iteration two all-to-alls in the row and two in the column */
    k = add_peers(f.row, f.nb2 * f.nb1 * f.nb1, 2.0 * iters, dst, bytes, k);
    k = add_peers(f.col, f.nb2 * f.nb1 * f.nb2, 2.0 * iters, dst, bytes, k);
    comm_matrix_write(k, dst, bytes);
    {
        /* two distinct phases, one after the other: the all-to-all in the
         * row (twice per iteration) and the one in the column (twice) */
        int kk[2];
        long rep[2] = {2L * iters, 2L * iters};
        kk[0] = add_peers(f.row, f.nb2 * f.nb1 * f.nb1, 1.0, dst, bytes, 0);
        kk[1] = add_peers(f.col, f.nb2 * f.nb1 * f.nb2, 1.0, dst, bytes, kk[0]) - kk[0];
        comm_phases_write(2, kk, dst, bytes, rep);
    }
    free(dst);
    free(bytes);
    free(A);
    free(B);
    free(C);
    free(f.sbuf);
    free(f.rbuf);
    MPI_Comm_free(&f.row);
    MPI_Comm_free(&f.col);
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return err <= 1e-9 ? 0 : 1;
}
