/* Host routines of another file, no OpenMP in them (their file has no
 * region table): fill_tasks writes the array it is given, the same values
 * each time; sum_tasks only reads it. */
void fill_tasks(int *t, int n, int base) {
  for (int i = 0; i < n; ++i)
    t[i] = (base + i) % 7;
}

long sum_tasks(const int *t, int n) {
  long s = 0;
  for (int i = 0; i < n; ++i)
    s += t[i];
  return s;
}
