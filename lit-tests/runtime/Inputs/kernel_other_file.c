// The kernel of update_to_other_file.c, in a file of its own: it finds
// `cnt`, `hits` and `lim` present, counts into cnt (mapped) and into hits
// (a pointer the region gets by value: `pointee-written`), and only reads
// lim.
void count_above(int *cnt, int *hits, const int *lim, const int *q, int n) {
#pragma omp target teams distribute parallel for map(tofrom: cnt[0:1]) map(to: lim[0:1], q[0:n])
  for (int i = 0; i < n; ++i)
    if (q[i] > lim[0]) {
#pragma omp atomic
      cnt[0] += 1;
#pragma omp atomic
      (*hits)++;
    }
}
