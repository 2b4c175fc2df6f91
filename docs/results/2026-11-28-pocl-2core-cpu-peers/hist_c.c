#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <omp.h>
int main(){size_t n=1<<26; uint8_t*a=malloc(n); for(size_t i=0;i<n;i++)a[i]=rand();
for(int rep=0;rep<3;rep++){ uint32_t tot=0; double t0=omp_get_wtime();
#pragma omp parallel reduction(+:tot)
{ uint32_t h[4][256]; memset(h,0,sizeof h); int T=omp_get_num_threads(), id=omp_get_thread_num(); size_t q=n/4/T;
const uint32_t*w=(const uint32_t*)a+id*q; for(size_t i=0;i<q;i++){uint32_t v=w[i]; h[0][v&255]++; h[1][(v>>8)&255]++; h[2][(v>>16)&255]++; h[3][v>>24]++;} tot+=h[0][3];}
double s=omp_get_wtime()-t0; printf("%.2f GB/s %d threads (%u)\n", n/s/1e9, omp_get_max_threads(), tot);}}
