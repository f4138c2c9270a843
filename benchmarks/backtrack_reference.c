/* The engine's exact-count loop written in plain C, for a same-machine comparison.
 *
 * Reads the candidate tables that benchmarks/backtrack_speed.py dumps from the engine's
 * plan (so both search the very same tree: the node counts must agree) and counts all
 * solutions.  Prints "solutions nodes cpu_seconds".  Only the row data it needs: per depth
 * the table base, the number of key sides and (neighbour square, neighbour side, multiplier)
 * for each.  Build: gcc -O2 -o bt backtrack_reference.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long *read_longs(FILE *f, long n) {
    long *a = malloc(sizeof(long) * (n > 0 ? n : 1));
    for (long i = 0; i < n; i++)
        if (fscanf(f, "%ld", &a[i]) != 1) { fprintf(stderr, "bad plan file\n"); exit(2); }
    return a;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: bt PLAN\n"); return 2; }
    FILE *f = fopen(argv[1], "r");
    if (!f) { perror(argv[1]); return 2; }
    long D, nc, ns, np, nt, nsq;
    if (fscanf(f, "%ld %ld %ld %ld %ld %ld", &D, &nc, &ns, &np, &nt, &nsq) != 6) return 2;
    long *cl = read_longs(f, nc), *sl = read_longs(f, ns), *pl = read_longs(f, np), *ol = read_longs(f, D);
    long *bl = read_longs(f, nsq), *ul = read_longs(f, nt);
    int *cand = malloc(4 * nc), *starts = malloc(4 * ns), *pcol = malloc(4 * np), *order = malloc(4 * D);
    int *board = malloc(4 * nsq);
    unsigned char *used = malloc(nt);
    for (long i = 0; i < nc; i++) cand[i] = (int)cl[i];
    for (long i = 0; i < ns; i++) starts[i] = (int)sl[i];
    for (long i = 0; i < np; i++) pcol[i] = (int)pl[i];
    for (long i = 0; i < D; i++) order[i] = (int)ol[i];
    for (long i = 0; i < nsq; i++) board[i] = (int)bl[i];
    for (long i = 0; i < nt; i++) used[i] = (unsigned char)ul[i];
    long *base = malloc(sizeof(long) * D), *mult = malloc(sizeof(long) * D * 4);
    int *nkey = malloc(4 * D), *knb = malloc(4 * D * 4), *kside = malloc(4 * D * 4);
    for (long d = 0; d < D; d++) {
        if (fscanf(f, "%ld %d", &base[d], &nkey[d]) != 2) return 2;
        for (int i = 0; i < 4; i++)
            if (fscanf(f, "%d %d %ld", &knb[d * 4 + i], &kside[d * 4 + i], &mult[d * 4 + i]) != 3) return 2;
    }
    int *cur = malloc(4 * (D + 1)), *end = malloc(4 * (D + 1));
    long nodes = 0, solutions = 0;
    clock_t t0 = clock();
    long d = 0;
    {
        long k = base[0];
        for (int j = 0; j < nkey[0]; j++) k += (long)pcol[board[knb[j]] * 4 + kside[j]] * mult[j];
        cur[0] = starts[k]; end[0] = starts[k + 1];
    }
    for (;;) {
        int i = cur[d], hi = end[d], found = -1;
        while (i < hi) {
            int p = cand[i++];
            if (used[p >> 2]) continue;
            found = p;
            break;
        }
        if (found < 0) {
            if (d == 0) break;
            d--;
            used[board[order[d]] >> 2] = 0;
            continue;
        }
        cur[d] = i;
        /* place found; while the child's list yields a free tile, go straight down with it */
        for (;;) {
            nodes++;
            if (d == D - 1) { solutions++; break; }
            board[order[d]] = found;
            long e = d + 1;
            long k = base[e];
            for (int j = 0; j < nkey[e]; j++)
                k += (long)pcol[board[knb[e * 4 + j]] * 4 + kside[e * 4 + j]] * mult[e * 4 + j];
            /* descend only if the child's list holds a free tile (found's own counts as taken) */
            int first = starts[k], after = starts[k + 1], t = found >> 2;
            while (first < after) {
                int q = cand[first] >> 2;
                if (!used[q] && q != t) break;
                first++;
            }
            if (first >= after) break;
            used[t] = 1;
            d = e;
            end[d] = after;
            found = cand[first];
            cur[d] = first + 1;
        }
    }
    double seconds = (double)(clock() - t0) / CLOCKS_PER_SEC;
    printf("%ld %ld %.6f\n", solutions, nodes, seconds);
    return 0;
}
