# Scratch: how often NVML's power violation counter and its reference time move (ctypes).
import ctypes, time, sys
nv = ctypes.CDLL("libnvidia-ml.so.1")
assert nv.nvmlInit_v2() == 0
h = ctypes.c_void_p()
assert nv.nvmlDeviceGetHandleByIndex_v2(0, ctypes.byref(h)) == 0
class V(ctypes.Structure): _fields_ = [("ref", ctypes.c_ulonglong), ("viol", ctypes.c_ulonglong)]
v = V(); last = None; t0 = time.time()
while time.time() - t0 < float(sys.argv[1]):
    nv.nvmlDeviceGetViolationStatus(h, 0, ctypes.byref(v))
    cur = (v.ref, v.viol)
    if cur != last:
        print("%.3f ref_us=%d viol_ns=%d" % (time.time() - t0, v.ref, v.viol)); last = cur
    time.sleep(0.002)
