#include <cstdio>
#include <cuda_fp16.h>
__constant__ float ctab[4] = {1.0f, 2.5f, -3.0f, 4.0f};
__device__ int gcount = 7;
__device__ unsigned long long gll[2] = {1ull, 0xffffffffffffffffull};
__device__ __noinline__ void noret(int *p, int v) { if (v) p[v] = v; }
__device__ __noinline__ double dbl(double x) { return sin(x) + exp(x) + log(x) + sqrt(x) / x; }
extern "C" __global__ void k(float *a, double *d, int *ip, unsigned *up, unsigned long long *ull, int n, __half *h) {
  __shared__ int sh[64];
  __shared__ double shd[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  float x = a[i];
  a[i] = sinf(x) + cosf(x) * tanhf(x) + expf(x) + logf(x) + rsqrtf(x) + __fdividef(x, 3.f) + ctab[i & 3] + erff(x) + powf(x, 2.3f);
  d[i] = dbl(d[i]) + (double)i / 3.0 + fma(d[i], 2.0, 1.0) + rint(d[i]) + floor(d[i]) + ceil(x) + trunc(x) + copysign(x, -1.f) + fabs(d[i]);
  atomicAdd(&ip[0], 1); atomicSub(&ip[1], 2); atomicMin(&ip[2], i); atomicMax(&ip[3], i);
  atomicInc(&up[0], 17u); atomicDec(&up[1], 17u); atomicAnd(&ip[4], i); atomicOr(&ip[5], i); atomicXor(&ip[6], i);
  atomicExch(&ip[7], i); atomicCAS(&ip[8], i, i + 1); atomicAdd(&ull[0], 5ull); atomicAdd(&d[0], 1.0);
  atomicCAS(&ull[1], 3ull, 4ull); atomicMax(&ull[2], (unsigned long long)i);
  sh[threadIdx.x & 63] = i; atomicAdd(&sh[0], 1); atomicCAS(&sh[1], 0, 1); shd[lane] = d[i];
  __syncthreads();
  unsigned m = __activemask();
  int all = __all_sync(m, x > 0), any = __any_sync(m, x < 0);
  unsigned b = __ballot_sync(m, i & 1);
  int v = __shfl_sync(m, i, 3) + __shfl_up_sync(m, i, 1) + __shfl_xor_sync(m, i, 4) + __shfl_down_sync(m, i, 2);
  __syncwarp(m);
  up[i] = __popc(b) + __clz(i) + __brev(i) + __byte_perm(i, b, 0x3210) + __funnelshift_l(i, b, 3) + __funnelshift_r(i, b, 5) + __ffs(i) + __popcll(ull[i]) + __clzll(ull[i]);
  up[i+1] = __umulhi(i, b) + __mulhi(i, v) + __mul24(i, v) + __sad(i, v, 3u) + (unsigned)__umul64hi(ull[0], ull[1]) + (i / n) + (i % n) + ((unsigned)i / (unsigned)n) + (all << 3) + (any >> 1) + min(i, v) + max(i, v) + abs(v);
  ull[i] = (unsigned long long)i * b + (ull[i] >> 3) + __brevll(ull[i]);
  long long ll = (long long)d[i]; unsigned short us = (unsigned short)x; char c = (char)i;
  ip[i+2] = (int)ll + us + c + __float2int_rn(x) + __float2int_rz(x) + __float2uint_rd(x) + __double2int_ru(d[i]) + (int)__saturatef(x) + __float_as_int(x) + (int)isnan(x) + (int)isinf(d[i]) + (int)isfinite(x) + __double2hiint(d[i]);
  h[i] = __hadd(h[i], __float2half(x));
  if (x > 1.f) noret(ip, i);
  __threadfence(); __threadfence_block(); __threadfence_system();
  int cnt = __syncthreads_count(x > 0); int an = __syncthreads_and(x > 0); int orr = __syncthreads_or(x > 0);
  float4 f4 = reinterpret_cast<float4*>(a)[i]; f4.x += 1; reinterpret_cast<float4*>(a)[i + 1] = f4;
  int2 i2 = reinterpret_cast<int2*>(ip)[i]; reinterpret_cast<int2*>(ip)[i+3] = i2;
  volatile int *vp = sh; vp[lane] += vp[lane + 16];
  a[i + 2] = __ldg(&a[i]) + cnt + an + orr + clock() + (float)clock64() + gcount + (float)gll[i & 1];
  int local[20]; for (int k = 0; k < 20; k++) local[k] = ip[k * n]; ip[n] = local[i % 20];
  if (i == 0) printf("hello %d %f\n", i, x);
  if (i == 99) __trap();
  unsigned smid; asm("mov.u32 %0, %%smid;" : "=r"(smid)); up[0] = smid;
  unsigned lm; asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lm)); up[1] = lm;
  unsigned wid; asm("mov.u32 %0, %%warpid;" : "=r"(wid)); up[2] = wid;
  __nanosleep(10);
}
