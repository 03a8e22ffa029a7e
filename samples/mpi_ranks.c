//===- mpi_ranks.c - an MPI program whose ranks offload to their own devices -===//
//
// Each rank of an MPI job offloads to device rank % (number of devices):
// with offload to the host, libomptarget's host plugin has 4 devices, so 4
// ranks use devices 0 to 3. Every rank maps `field` tofrom in each time
// step of its loop, so it comes back unchanged and goes out again (round
// trips, on every rank); odd ranks also send the same `coeffs` to their
// device in each step (duplicate transfers, only there). The ranks then
// sum their fields (and the odd ranks' scaled coefficients) with
// MPI_Reduce.
//
//   clang-19 --config=build/lib/ompdp.cfg -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu \
//     $(mpicc --showme:compile) samples/mpi_ranks.c $(mpicc --showme:link) -o mpi_ranks \
//     -Wl,-rpath,/usr/lib/llvm-19/lib
//   mpirun --allow-run-as-root --oversubscribe -np 4 build/bin/ompdp run --format=json \
//     -o report.%r.json -- ./mpi_ranks
//   build/bin/ompdp merge -o merged.json report.*.json
//   build/bin/ompdp report merged.json
//
// (Open MPI wants --allow-run-as-root as root, and --oversubscribe on fewer
// cores than ranks; README.md, MPI programs.)
//===----------------------------------------------------------------------===//
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

#define N 4096
#define STEPS 8

static double field[N], coeffs[N], scaled[N];

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int devices = omp_get_num_devices();
  omp_set_default_device(devices > 0 ? rank % devices : omp_get_initial_device());

  for (int i = 0; i < N; ++i) {
    field[i] = rank + i % 7;
    coeffs[i] = 0.5;
  }
  for (int step = 0; step < STEPS; ++step) {
#pragma omp target teams distribute parallel for map(tofrom : field)
    for (int i = 0; i < N; ++i)
      field[i] = field[i] * 0.5 + 1.0;
    if (rank % 2) {
#pragma omp target teams distribute parallel for map(to : coeffs) map(from : scaled)
      for (int i = 0; i < N; ++i)
        scaled[i] = coeffs[i] * (step + 2);
    }
  }

  double local = 0, total = 0;
  for (int i = 0; i < N; ++i)
    local += field[i] + scaled[i];
  MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("sum over %d ranks: %.3f\n", size, total);
  MPI_Finalize();
  return 0;
}
