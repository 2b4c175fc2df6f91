import time, numpy as np, cv2, json
def b(fn,n=5):
    fn(); ts=[]
    for _ in range(n):
        t=time.perf_counter(); fn(); ts.append(time.perf_counter()-t)
    ts.sort(); return ts[n//2]
cv2.ocl.setUseOpenCL(False)
f=np.random.rand(4096,4096).astype(np.float32)
kx=cv2.getGaussianKernel(31,5).astype(np.float32)
t=b(lambda: cv2.sepFilter2D(f,-1,kx,kx)); print(json.dumps({"blur.opencv_cpu_sep31_f32_4096_MPps": round(4096*4096/t/1e6), "threads": cv2.getNumThreads(), "opencv": cv2.__version__}))
