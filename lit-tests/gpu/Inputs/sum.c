// The NVIDIA build tests' program: three launches each copy `a` both ways
// (map(tofrom)), so 6 transfers and 2 round trips when it runs on a device,
// none when its target regions run on the host. Prints sum=102 either way.
#include <stdio.h>

int main(void) {
  int a[100];
  for (int i = 0; i < 100; i++)
    a[i] = i;
  for (int step = 0; step < 3; step++) {
#pragma omp target map(tofrom : a)
    for (int i = 0; i < 100; i++)
      a[i] += 1;
  }
  printf("sum=%d\n", a[99]);
  return 0;
}
