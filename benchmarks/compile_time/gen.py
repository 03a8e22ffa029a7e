#!/usr/bin/env python3
#===- gen.py - a large C file with thousands of target regions -----------===#
#
# Writes a C translation unit with N functions, each with a time loop around
# a target data region, a target region with explicit maps, an update and a
# combined construct with implicit maps: 4*N offload constructs.
#
#===----------------------------------------------------------------------===#
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
out = ["#include <stdlib.h>", "double g[1024];"]
for i in range(n):
    out.append(f"""
void kernel_{i}(double *u, double *v, int n, int steps) {{
#pragma omp target data map(to: v[0:n])
  for (int t = 0; t < steps; ++t) {{
#pragma omp target map(tofrom: u[0:n])
    for (int j = 0; j < n; ++j) u[j] += v[j] * {i}.0;
#pragma omp target update from(u[0:n])
#pragma omp target teams distribute parallel for
    for (int j = 0; j < 1024; ++j) g[j] += t;
  }}
}}""")
print("\n".join(out))
