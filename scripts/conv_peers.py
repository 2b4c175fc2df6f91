#!/usr/bin/env python3
"""Peers of the convolution ladder on the GPU machine, at the sizes clgauge measures: a W x W output of a
"valid" 2D float filter over a (W+F-1)^2 input, for each filter size F. Measured with what a user would call:
torch.nn.functional.conv2d (fp32, TF32 off) with cuDNN's default algorithm choice and with
cudnn.benchmark=True (cuDNN times its algorithms, FFT-based ones included, and keeps the fastest), and
OpenCV's OpenCL cv2.filter2D on a W x W UMat (BORDER_REPLICATE: W x W outputs, the same taps per output).
Times: CUDA events around one call (torch), host clock around call + cv2.ocl.finish (OpenCV); median of 10
after 3 warm-ups. GFLOP/s count 2 FLOPs per tap per output, as clgauge does.

Usage: python3 conv_peers.py [--size W] [--filters 3,5,9,17,32] [--out FILE.json]
"""
import json, statistics, sys, time


def arg(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def torch_time(fn, torch, n=10, warm=3):
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(n):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(); fn(); b.record(); b.synchronize()
        ts.append(a.elapsed_time(b) / 1e3)
    return statistics.median(ts)


def torch_peers(w, filters, res):
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    res["device"] = torch.cuda.get_device_name()
    for bench in (False, True):
        torch.backends.cudnn.benchmark = bench
        for f in filters:
            img = torch.rand(1, 1, w + f - 1, w + f - 1, device="cuda")
            k = torch.rand(1, 1, f, f, device="cuda")
            t = torch_time(lambda: torch.nn.functional.conv2d(img, k), torch)
            key = "torch_conv2d%s_%dx%d" % ("_benchmark" if bench else "", f, f)
            res[key] = {"ms": round(t * 1e3, 3), "GFLOPs": round(2 * w * w * f * f / t / 1e9, 1)}
            print(key, res[key], flush=True)
            del img, k
            torch.cuda.empty_cache()


def opencv_peers(w, filters, res):
    import cv2, numpy as np
    cv2.ocl.setUseOpenCL(True)
    res["opencv_ocl_device"] = cv2.ocl.Device.getDefault().name()
    for f in filters:
        src = cv2.UMat(np.random.rand(w, w).astype(np.float32))
        k = np.random.rand(f, f).astype(np.float32)
        call = lambda: cv2.filter2D(src, -1, k, borderType=cv2.BORDER_REPLICATE)
        try:
            for _ in range(3):
                call(); cv2.ocl.finish()
            ts = []
            for _ in range(10):
                t = time.perf_counter(); call(); cv2.ocl.finish(); ts.append(time.perf_counter() - t)
            t = statistics.median(ts)
            res["opencv_filter2D_%dx%d" % (f, f)] = {"ms": round(t * 1e3, 3),
                                                     "GFLOPs": round(2 * w * w * f * f / t / 1e9, 1)}
        except Exception as e:  # OpenCV may refuse large kernels on its OpenCL path
            res["opencv_filter2D_%dx%d" % (f, f)] = {"error": str(e)[:200]}
        print("opencv_filter2D_%dx%d" % (f, f), res["opencv_filter2D_%dx%d" % (f, f)], flush=True)


def main():
    w = int(arg("--size", "8192"))
    filters = [int(x) for x in arg("--filters", "3,5,9,17,32").split(",")]
    res = {"size": w, "filters": filters}
    torch_peers(w, filters, res)
    opencv_peers(w, filters, res)
    with open(arg("--out", "conv_peers.json"), "w") as fh:
        json.dump(res, fh, indent=1)


if __name__ == "__main__":
    main()
