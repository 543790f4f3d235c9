"""The Python half of bench/compare.sh: times, in-process, the readers people use today on the
same files as decodetime, printing "what file seconds" (median of RUNS runs after two warm-ups).
  numpy-gzip:  numpy.frombuffer(gzip.open(f).read(), offset=16)  for .gz files
  numpy-raw:   numpy.frombuffer(open(f, 'rb').read(), offset=16)  for plain files
  torchvision: torchvision.datasets.mnist.read_image_file(f)      for plain files (it reads no .gz)
  py-read:     open(f, 'rb').read()                                for plain files (the baseline)
"""
import gzip, statistics, sys, time

import numpy
import torchvision.datasets.mnist as tvmnist

RUNS = 21

def median(f):
    for _ in range(2):
        f()
    times = []
    for _ in range(RUNS):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times)

def read(path):
    with open(path, 'rb') as fh:
        return fh.read()

for path in sys.argv[1:]:
    if read(path)[:2] == b'\x1f\x8b':
        def numpy_gzip():
            with gzip.open(path) as fh:
                a = numpy.frombuffer(fh.read(), dtype=numpy.uint8, offset=16)
            assert a.size > 0
        print('numpy-gzip', path, '%.6f' % median(numpy_gzip))
    else:
        print('numpy-raw', path, '%.6f' % median(lambda: numpy.frombuffer(read(path), dtype=numpy.uint8, offset=16)))
        print('torchvision', path, '%.6f' % median(lambda: tvmnist.read_image_file(path)))
        print('py-read', path, '%.6f' % median(lambda: read(path)))
    sys.stdout.flush()
