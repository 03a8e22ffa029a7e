// What a call records for a caller two levels up (region table 3.15), the
// facts behind keeping data at the loop of a caller's caller
// (fixes/keep-at-caller-two-levels*.c):
//   - in-params: each argument in the parameters of the function the call
//     is in (ParamArgs): a parameter passed by value that the function
//     never writes, `*p` of a pointer parameter only ever read through, a
//     constant local replaced by its initialiser, literals and arithmetic;
//     '' for anything else (a local that is assigned, an address, a
//     subscript, a call);
//   - caller-param-uses: that function's FnParamUses, with 'r' (a pointer
//     only read through, `*p` or `p[i]`), 'e' (a pointer whose one use
//     passes it to a call of a function defined elsewhere) and 'b' (both);
//   - addr-args-only on an argument `&v` whose function takes v's address
//     only as call arguments, and extern-args on the host access of a
//     statement that passes `&v` to a function defined elsewhere.
// REQUIRES: plugin
// RUN: %clang %ompdp-plugin-flags -fplugin-arg-ompdp-dump %offload-flags -c %s -o %t.o | FileCheck %s

void kern(const double *a, const double *b, double *res, int n, int m);
int other(int);

// a: passed on three times ('-'); b: read and passed on ('-'); res:
// written ('-'); n_ and k_: only read through ('r'); c: never named
// ('u'); s: by value ('-').
void mid(double *a, double *b, double *res, int *n_, int *k_, double *c, int s) {
  const int n = *n_;
  const int twice = 2 * (n + s) - 1;
  int m = s;
  m += 1;
  double r = b[0];
  kern(a, b, &r, n, twice);
  kern(a + 1, b, &r, other(n), m);
  kern(a + 1, b, &r, *k_, k_[1]);
  other(*k_);
  *res += r;
}
// CHECK: region {{.*}} 'call' at {{.*}}call-param-args.c:[[#@LINE-6]]:3 in 'mid' extern-callee
// CHECK: callee: 'kern' {{.*}} in-params 'a' 'b' '' '(*n_)' '(2 * ((*n_) + s) - 1)' caller-param-uses '---rru-'{{$}}
// CHECK: region {{.*}} 'call' at {{.*}}call-param-args.c:[[#@LINE-7]]:3 in 'mid' extern-callee
// CHECK: callee: 'kern' {{.*}} in-params 'a + 1' 'b' '' '' '' caller-param-uses
// CHECK: region {{.*}} 'call' at {{.*}}call-param-args.c:[[#@LINE-8]]:3 in 'mid' extern-callee
// CHECK: callee: 'kern' {{.*}} in-params 'a + 1' 'b' '' '*k_' '' caller-param-uses

// a passed twice ('-'), n_ read through ('r').
void pass(double *a, int *n_) { kern(a, a, 0, *n_, 1); }
// CHECK: region {{.*}} 'call' at {{.*}}call-param-args.c:[[#@LINE-1]]:33 in 'pass'
// CHECK: in-params 'a' 'a' '0' '*n_' '1' caller-param-uses '-r'{{$}}

// a passed on once ('e').
void passon(double *a, int *n_) { kern(a, 0, 0, *n_, 1); }
// CHECK: region {{.*}} 'call' at {{.*}}call-param-args.c:[[#@LINE-1]]:35 in 'passon'
// CHECK: in-params 'a' '0' '0' '*n_' '1' caller-param-uses 'er'{{$}}

// a read through and passed on once ('b'); w read and passed on twice ('-').
void both(double *a, double *w) { kern(a, w, w, (int)a[0], 1); }
// CHECK: region {{.*}} 'call' at {{.*}}call-param-args.c:[[#@LINE-1]]:35 in 'both'
// CHECK: caller-param-uses 'b-'{{$}}

// len's address goes only to calls in the loop, and peek() is passed it
// (extern-args); hidden's is also stored in alias, and out's goes to a
// call before the loop.
void step(double *a, double *b, double *res, int *n_, int *k_, double *c, int s);
void peek(int *);
void driver(double *a, double *b, double *res) {
  int len = 8, hidden = 8, *alias = &hidden, out = 8;
  peek(&out);
  for (int i = 0; i < 4; ++i) {
    step(a, b, res, &len, &hidden, 0, out);
    step(a, b, res, &out, &len, 0, i);
    peek(&len);
    *alias += 0;
  }
}
// CHECK: region {{.*}} 'call' at {{.*}}call-param-args.c:[[#CALL1:]]:5 in 'driver' extern-callee
// CHECK: item 3: none '&len' var 'len' mods - clause 'step(a, b, res, &len, &hidden, 0, out)' {{.*}} arg-invariant addr-args-only
// CHECK-NOT: addr-args-only
// CHECK: host 3 'len' read-write at [[#CALL1+2]]:5-[[#CALL1+2]]:16 {{.*}} extern-args 1
// CHECK: region {{.*}} 'call' at {{.*}}call-param-args.c:[[#CALL1+1]]:5 in 'driver' extern-callee
// CHECK-NOT: item 3: {{.*}}addr-args-only
// CHECK: item 4: none '&len' var 'len' {{.*}} arg-invariant addr-args-only
