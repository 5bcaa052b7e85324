#!/usr/bin/env bash
# Installs everything the build and the tests need, idempotently:
#   Debian packages (compiler, CMake, Ninja, Catch2, RapidCheck, fmt, TinyXML2, CLI11, nlohmann-json,
#   OpenSSL's libcrypto for SHA-256, SQLite for reports/history.sqlite, xmllint, stockfish, ccache and mold
#   for fast rebuilds and links, and chromium
#   for the review page's browser test; STK_SKIP_CHROMIUM=1 leaves chromium out on a developer machine)
#   and a project-local Python virtual environment in .venv (python-chess, numpy, pytest, matplotlib,
#   PyYAML for the CI-template test, ruff and mypy for ci/lint.sh, universalmutator and cosmic-ray
#   for ci/mutation.sh, JAX (CPU) and optax for python -m stktrain.train), clang-format for ci/lint.sh;
#   with STK_FUZZ_DEPS=1 also clang and libclang-rt-14-dev for ci/fuzz.sh; STK_DEPS=debian installs the
#   Debian packages only (no venv).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

debs=(g++ cmake ninja-build git catch2 librapidcheck-dev libfmt-dev libtinyxml2-dev libxml2-utils
      libcli11-dev nlohmann-json3-dev libssl-dev libsqlite3-dev stockfish python3 python3-venv
      clang-format ccache mold)
[ "${STK_SKIP_CHROMIUM:-0}" = 1 ] || debs+=(chromium)
# ci/fuzz.sh: clang with libFuzzer and the sanitizer runtimes.
[ "${STK_FUZZ_DEPS:-0}" != 1 ] || debs+=(clang libclang-rt-14-dev)
missing=()
for p in "${debs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "ci/install-deps: installing Debian packages: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# STK_DEPS=debian stops here: what a C++-only entry point (ci/sanitizers.sh) needs, without creating
# a venv in a scratch clone.
[ "${STK_DEPS:-all}" != debian ] || exit 0

venv="$root/.venv"
stamp="$venv/.stk-deps-v1"
if [ ! -f "$stamp" ]; then
  echo "ci/install-deps: creating Python environment in $venv"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install -q --upgrade pip
  "$venv/bin/python" -m pip install -q "chess>=1.10" "numpy>=1.24" "pytest>=7" "matplotlib>=3.6"
  touch "$stamp"
fi
# Added after the stamp: PyYAML (tests/test_ci_templates.py reads the CI templates).
"$venv/bin/python" -c "import yaml" 2>/dev/null || "$venv/bin/python" -m pip install -q "pyyaml>=6"
# Added after the stamp: ruff and mypy (ci/lint.sh). Pinned to a minor series: a newer ruff may
# format differently and a newer mypy may find more, and ci/lint.sh must not change under a tree.
"$venv/bin/python" -m ruff --version 2>/dev/null | grep -q '^ruff 0\.17\.' \
  || "$venv/bin/python" -m pip install -q "ruff~=0.17.6"
"$venv/bin/python" -m mypy --version 2>/dev/null | grep -q '^mypy 2\.4\.' \
  || "$venv/bin/python" -m pip install -q "mypy~=2.4.1"
# Added after the stamp: the mutant generators of ci/mutation.sh (universalmutator for C++,
# cosmic-ray for Python), pinned: another version makes other mutants from the same tree.
"$venv/bin/python" -c "import importlib.metadata as m; assert m.version('universalmutator') == '1.14.1'" \
  2>/dev/null \
  || "$venv/bin/python" -m pip install -q "universalmutator==1.14.1"
"$venv/bin/python" -c "import importlib.metadata as m; assert m.version('cosmic-ray') == '8.7.0'" \
  2>/dev/null \
  || "$venv/bin/python" -m pip install -q "cosmic-ray==8.7.0"
# The trainer's autodiff (python -m stktrain.train): JAX on the CPUs (a GPU where jax finds one) and
# optax's Adam, pinned. About 1 minute and 380 MB (docs/training.md says why JAX, not PyTorch).
"$venv/bin/python" -c "import importlib.metadata as m; assert m.version('jax') == '0.10.2' and m.version('optax') == '0.2.8'" \
  2>/dev/null \
  || "$venv/bin/python" -m pip install -q "jax[cpu]==0.10.2" "optax==0.2.8"
# Added after the stamp: Hypothesis, the property tests' input generator (docs/models-howto.md),
# pinned: another version draws other examples from the same seed.
"$venv/bin/python" -c "import importlib.metadata as m; assert m.version('hypothesis') == '6.170.17'" \
  2>/dev/null \
  || "$venv/bin/python" -m pip install -q "hypothesis==6.170.17"
# Dask's distributed (scheduler, workers, client), pinned: python -m stkdist runs the long runs on
# it (docs/distributed.md).
"$venv/bin/python" -c "import importlib.metadata as m; assert m.version('distributed') == '2026.8.0'" \
  2>/dev/null \
  || "$venv/bin/python" -m pip install -q "dask[distributed]==2026.8.0"
# The review summary's test parses the Markdown as GitHub does (CommonMark with GFM tables).
"$venv/bin/python" -c "import importlib.metadata as m; assert m.version('markdown-it-py') == '4.3.0'" \
  2>/dev/null \
  || "$venv/bin/python" -m pip install -q "markdown-it-py==4.3.0"
# coverage.py, pinned: the mutation tool's Python coverage map (which tests ran each line of the
# Python packages, ci/mutation.sh --refresh-python-coverage).
"$venv/bin/python" -c "import importlib.metadata as m; assert m.version('coverage') == '7.18.0'" \
  2>/dev/null \
  || "$venv/bin/python" -m pip install -q "coverage==7.18.0"
# The reference package is installed editable so `python -m stkref.<tool>` works from anywhere.
if [ -f "$root/harness/python/pyproject.toml" ] \
  && ! "$venv/bin/python" -c "import stkref, stktrain, stkmutation, stkdev, stkdist" 2>/dev/null; then
  "$venv/bin/python" -m pip install -q --no-deps -e "$root/harness/python"
fi
