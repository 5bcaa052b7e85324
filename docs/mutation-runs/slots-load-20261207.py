"""Survivor selections of the ca1c60b shards, run unmutated on build/release with S side by side.
Prints wall time and which selections failed (a failure unmutated = a false kill under load)."""
import json, glob, random, re, subprocess, sys, time, os, concurrent.futures as cf
ROOT = str(__import__('pathlib').Path(__file__).resolve().parents[2])
S = int(sys.argv[1]); N = int(sys.argv[2]); seed = int(sys.argv[3])
sel = []
for f in sorted(glob.glob(f'{ROOT}/docs/mutation-runs/close-ca1c60b-cpp-s*.json')):
    for m in json.load(open(f))['mutants']:
        if m['outcome'] == 'survived' and m['tests'] and m['seconds'] < 400:
            sel.append(m)
random.Random(seed).shuffle(sel)
sel = sel[:N]
ctest_names = set(l.split(': ',1)[1].strip() for l in subprocess.run(['ctest','--test-dir',f'{ROOT}/build/release','-N'],capture_output=True,text=True).stdout.splitlines() if re.match(r'\s*Test +#\d+: ',l))
def job(i_m):
    i, m = i_m
    slot_tmp = f'/tmp/slots-exp/{i}'; os.makedirs(slot_tmp, exist_ok=True)
    env = dict(os.environ, TMPDIR=slot_tmp)
    ct = [t for t in m['tests'] if t in ctest_names]
    py = [t for t in m['tests'] if t.startswith('harness/python/')]
    t0 = time.time(); ok = True
    if ct:
        rx = '^(' + '|'.join(re.escape(t) for t in ct) + ')$'
        r = subprocess.run(['ctest','--test-dir',f'{ROOT}/build/release','-R',rx], capture_output=True, text=True, env=env)
        ok &= r.returncode == 0
        if r.returncode: print('CTEST FAIL', i, r.stdout[-600:], flush=True)
    if py:
        r = subprocess.run([sys.executable,'-m','pytest','-q','-p','no:cacheprovider',*[t.replace('harness/python/','',1) for t in py]], cwd=f'{ROOT}/harness/python', capture_output=True, text=True, env=env)
        # 4: node id not found (renamed since ca1c60b) counts as no test
        ok &= r.returncode in (0, 4, 5)
        if r.returncode not in (0,4,5): print('PYTEST FAIL', i, r.stdout[-900:], flush=True)
    return i, len(ct), len(py), time.time() - t0, ok
t0 = time.time()
with cf.ThreadPoolExecutor(S) as ex:
    res = list(ex.map(job, enumerate(sel)))
wall = time.time() - t0
for r in res: print('job', r[0], 'ctest', r[1], 'py', r[2], f'{r[3]:.0f} s', 'ok' if r[4] else 'FAILED')
print(f'S={S} N={N} seed={seed}: wall {wall:.0f} s, sum of job seconds {sum(r[3] for r in res):.0f}, failed {sum(not r[4] for r in res)}')
