#!/usr/bin/env bash
# gdp on CUDA against gdp on the CPU, on a lent GPU machine (the `device` tool's H200).
#
# That machine has CMake, ninja, a compiler and a CUDA PyTorch, but no Qt and none of the other
# libraries core/ links (ONNX, protobuf, Graphviz, METIS, GLPK, Eigen, nlohmann-json) and no
# package registry. So:
#   here:   bench/cuda_check.sh fetch    downloads Debian 12's packages of those into .devdeps/
#                                        (ignored by git: add /.devdeps/ to .git/info/exclude)
#   there:  bench/cuda_check.sh run      (the device tool's run, with carry [".devdeps"])
# `run` unpacks the packages into .devdeps/root, builds core/, models/ and placement-cli with the
# GUI off against PyTorch's LibTorch (`torch.utils.cmake_prefix_path`) in build-cuda/, checks that
# a seeded CUDA run repeats itself, then runs bench/gdp_cuda_matrix.py. Everything it prints is
# also written under $OUT (probe.txt, configure.log, build.log, smoke.txt, matrix.md).
# PS_CXX_STANDARD=20 builds as C++20 (a LibTorch that asks for it); PS_MATRIX_ARGS adds arguments
# to the matrix; PS_BUILD_DIR replaces build-cuda; PS_DEADLINE (seconds since the start, default
# 570) cuts the matrix short.
set -uo pipefail
cd "$(dirname "$0")/.."
PACKAGES="nlohmann-json3-dev libeigen3-dev libprotobuf-dev libprotobuf32 libprotobuf-lite32 libonnx-dev libonnx1
  libonnxifi libgraphviz-dev libcgraph6 libgvc6 libcdt5 libpathplan4 libxdot4 libgvpr2 liblab-gamut1 libexpat1
  libltdl7 libmetis-dev libmetis5 libglpk-dev libglpk40 libamd2 libcolamd2 libsuitesparseconfig5 libgmp10
  zlib1g-dev zlib1g pkgconf pkgconf-bin libpkgconf3"

if [ "${1:-}" = fetch ]; then
    mkdir -p .devdeps && cd .devdeps && exec apt-get download $PACKAGES
fi
[ "${1:-}" = run ] || { echo "usage: bench/cuda_check.sh fetch|run" >&2; exit 2; }

OUT=${OUT:-/tmp/cuda-check}
mkdir -p "$OUT"
D=$PWD/.devdeps/root
BUILD=${PS_BUILD_DIR:-build-cuda}
{
    nvidia-smi -L; nproc; uname -m; head -2 /etc/os-release
    c++ --version | head -1; cmake --version | head -1; ninja --version
    python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.cuda.is_available())'
} 2>&1 | tee "$OUT/probe.txt"

if [ ! -d "$D/usr" ]; then
    mkdir -p "$D" && for f in .devdeps/*.deb; do dpkg -x "$f" "$D"; done
    find "$D" -name '*.pc' -exec sed -i "s|^prefix=/usr\$|prefix=$D/usr|" {} +
fi
export LD_LIBRARY_PATH=$D/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PKG_CONFIG_PATH=$D/usr/lib/x86_64-linux-gnu/pkgconfig:$D/usr/share/pkgconfig
PKGCONF=$(command -v pkg-config || echo "$D/usr/bin/pkgconf")
TORCH_PREFIX=$(python3 -c 'import torch.utils; print(torch.utils.cmake_prefix_path)')

cmake -G Ninja -S . -B "$BUILD" -DPS_WITH_QT=OFF -DPS_BUILD_BENCH=OFF -DCMAKE_PREFIX_PATH="$TORCH_PREFIX;$D/usr" \
    -DPKG_CONFIG_EXECUTABLE="$PKGCONF" ${PS_CXX_STANDARD:+-DCMAKE_CXX_STANDARD=$PS_CXX_STANDARD} \
    >"$OUT/configure.log" 2>&1 || { tail -60 "$OUT/configure.log"; exit 1; }
echo "configured at ${SECONDS}s"
if ! ninja -C "$BUILD" -k 0 placement-cli >"$OUT/build.log" 2>&1; then
    grep -B2 -A6 -m60 "error" "$OUT/build.log" | head -300
    exit 1
fi
echo "built at ${SECONDS}s"

CLI=$BUILD/app/cli/placement-cli
{
    $CLI --version
    $CLI generate inception-v3 --out /tmp/inc.graph.json >/dev/null
    for m in gdp rl-seq2seq giph; do # a seeded CUDA run repeats itself (samples drawn on the CPU)
        for i in 1 2; do
            $CLI place /tmp/inc.graph.json resources/clusters/4gpu.cluster.json --model $m --seed 7 \
                --param iterations=3 --param device=cuda --out /tmp/inc-$m-$i.placement.json | tail -1
        done
        python3 -c 'import json,sys; a,b=(json.load(open(f))["assignment"] for f in sys.argv[2:]); print(sys.argv[1] + " cuda: the same placement twice" if a==b else sys.argv[1] + " cuda: two placements")' $m /tmp/inc-$m-1.placement.json /tmp/inc-$m-2.placement.json
    done
} 2>&1 | tee "$OUT/smoke.txt"
echo "smoke done at ${SECONDS}s"
if [ "$(grep -c '"feasible"' "$OUT/smoke.txt")" != 6 ]; then # where it broke, then stop
    cuda-gdb -batch -ex run -ex bt --args $CLI place /tmp/inc.graph.json resources/clusters/4gpu.cluster.json \
        --model gdp --seed 7 --param iterations=3 --param device=cuda --out /tmp/inc-3.placement.json 2>&1 |
        tail -40 | tee "$OUT/backtrace.txt"
    exit 1
fi

PYTHONUNBUFFERED=1 timeout $((${PS_DEADLINE:-570} - SECONDS)) python3 bench/gdp_cuda_matrix.py --cli "$CLI" \
    ${PS_MATRIX_ARGS:-} 2>&1 | tee "$OUT/matrix.md"
echo "ended at ${SECONDS}s"
