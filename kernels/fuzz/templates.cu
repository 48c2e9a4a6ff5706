#include <cooperative_groups.h>
#include <cuda_fp16.h>
namespace cg = cooperative_groups;
struct Big { double a[3]; int b; char c; };
__device__ __noinline__ Big mk(int i) { Big r; r.a[0] = i; r.a[1] = 2*i; r.a[2] = 3; r.b = i; r.c = (char)i; return r; }
__device__ __noinline__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
template <typename T> __global__ void tk(T *out, const T *in, int n, Big bg) {
  cg::thread_block tb = cg::this_thread_block();
  cg::thread_block_tile<32> w = cg::tiled_partition<32>(tb);
  T v = in[threadIdx.x];
  for (int o = 16; o > 0; o /= 2) v += w.shfl_down(v, o);
  tb.sync();
  Big b = mk(threadIdx.x);
  if (w.thread_rank() == 0) out[blockIdx.x] = v + (T)b.a[1] + (T)bg.a[2] + (T)fact(n);
  unsigned long long t = clock64();
  out[n+1] = (T)(t & 7) + (T)w.any(v > 0) + (T)w.all(v > 1);
  float4 q = __ldg(reinterpret_cast<const float4*>(in) + 1);
  out[n+2] = (T)(q.x + q.w);
  asm volatile("membar.gl;");
#pragma unroll 1
  for (int i = 0; i < n; i++) out[i] = (T)i * (T)0.5;
}
template __global__ void tk<float>(float*, const float*, int, Big);
template __global__ void tk<double>(double*, const double*, int, Big);
template __global__ void tk<int>(int*, const int*, int, Big);
