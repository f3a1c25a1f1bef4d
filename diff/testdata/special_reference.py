# The reference values of stats_test.go's TestSpecialFunctionsToTheirAccuracy,
# computed at 40 digits with mpmath (pip install mpmath; python3 special_reference.py).
import mpmath as mp

mp.mp.dps = 40
for x in [0.3, 1, 2.5, 5.5, 6, 6.5, 11, 40]:
    print("polygamma", x, *(mp.nstr(mp.polygamma(k, x), 20) for k in range(3)))
for y in [0.05, 0.3, 1.0, 4.0, 50.0, 1e7, 1e-6]:
    start = 1 / mp.sqrt(y) if y > 10 else 1 / mp.mpf(y) + 0.5
    print("trigamma inverse", y, mp.nstr(mp.findroot(lambda x: mp.polygamma(1, x) - y, start), 20))
for a, b, x in [(2, 3, 0.3), (0.5, 5, 0.9), (3, 0.5, 0.2), (3, 0.5, 0.95), (10, 0.5, 0.7), (1.5, 0.5, 0.5), (25, 0.5, 0.9)]:
    print("betainc", a, b, x, mp.nstr(mp.betainc(a, b, 0, x, regularized=True), 20))
for t, df in [(2.5, 4), (-6, 10), (0.3, 3), (1.2, 7.5), (3.1, 60), (0.05, 2)]:
    x = mp.mpf(df) / (df + mp.mpf(t) ** 2)
    print("two-sided p", t, df, mp.nstr(mp.betainc(mp.mpf(df) / 2, 0.5, 0, x, regularized=True), 20))

# fitPrior's and moderatedT's values: Smyth's (2004) moment estimates of
# the prior, and the moderated t of one method, from the formulas of the
# paper (section 6.2), with mpmath's polygamma.
def fit_prior(variances, d):
    d = mp.mpf(d)
    es = [mp.log(v) - mp.digamma(d / 2) + mp.log(d / 2) for v in variances if v > 0]
    mean = sum(es) / len(es)
    evar = sum((e - mean) ** 2 for e in es) / (len(es) - 1) - mp.polygamma(1, d / 2)
    d0 = 2 * mp.findroot(lambda x: mp.polygamma(1, x) - evar, 1 / evar + 0.5)
    return mp.exp(mean + mp.digamma(d0 / 2) - mp.log(d0 / 2)), d0

s02, d0 = fit_prior([0.02, 0.05, 0.11, 0.07, 0.3, 0.04, 0, 0.09], 4)
print("fit prior", mp.nstr(s02, 20), mp.nstr(d0, 20))
s02_2, d0_2 = fit_prior([0.02, 0.5], 2)
print("fit prior of two", mp.nstr(s02_2, 20), mp.nstr(d0_2, 20))
base, new = [1.0, 1.3, 0.9], [1.6, 1.4, 1.9]
mb, mn = sum(base) / 3, sum(new) / 3
v = (sum((x - mb) ** 2 for x in base) + sum((x - mn) ** 2 for x in new)) / 4
post = (d0 * s02 + 4 * v) / (d0 + 4)
print("moderated t", mp.nstr((mn - mb) / mp.sqrt(post * (mp.mpf(1) / 3 + mp.mpf(1) / 3)), 20), mp.nstr(d0 + 4, 20))
