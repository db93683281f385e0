"""Where does BayesianDP show what it does on the real chat? (issue 31 item 2: the page's opening settings)

    python scripts/bayes_opening_sweep.py            # the real chat (the default corpus), n = 1 and 2
    python scripts/bayes_opening_sweep.py --quick    # n = 1 only, fewer values

Sweeps the Bayesian page's own knobs with dpcore alone — n, L (strict mode's item cap), S, ρ and ε at C = 1,
δ = 1e-5, N_max = 10,000 (the page's), strict (DP) mode — and prints, per setting, γ_strict, σ_ps, the mean KL
of 3 seeded releases, the noise-free KL (ε → ∞: θ = softmax(μ_ps)), the public baseline's KL and the median of
released/private probability over the top-20 private n-grams (1 = the released bars as tall as the private
ones; 1e-8 = invisible). Ends with the best settings by KL and whether any strict release at ε ≤ 8 has a KL at
or below the public baseline's.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dpcore.bayesian.baselines import public_baseline  # noqa: E402
from dpcore.metrics import kl_divergence  # noqa: E402
from dpcore.specs import BayesianSpec  # noqa: E402
from dpcore.specs.base import load_corpus  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    orders = (1,) if args.quick else (1, 2)
    Ls = (1, 5, 50) if args.quick else (1, 2, 5, 10, 50)
    Ss = (1e-3, 1.0) if args.quick else (1e-3, 1e-2, 0.1, 1.0, 1e4)
    rhos = (0.05, 0.1, 0.3, 1.0) if args.quick else (0.05, 0.1, 0.2, 0.3, 0.6, 1.0)
    epss = (1.0, 2.0, 4.0, 8.0)
    priv, pub = load_corpus("chat"), load_corpus("chat", which="public")
    rows = []
    for n in orders:
        base = BayesianSpec(corpus="chat", n=n, C=1, delta=1e-5, max_users=10_000, mode="strict")
        counts = base.counts(priv, pub)
        p = counts.private_distribution()
        kl_pub = kl_divergence(p, public_baseline(counts.public_counts))
        top = np.argsort(-p)[:20]
        print(
            f"n = {n}: |V| = {counts.vocabulary_size:,}, users = {counts.n_users}, KL(public baseline) = {kl_pub:.4g}"
        )
        for L in Ls:
            stats = base.replace(max_items=L).strict_statistics(counts)
            for S in Ss:
                for rho in rhos:
                    spec = base.replace(max_items=L, S=S, rho=rho)
                    prep = spec.prepare(stats)
                    kl_free = kl_divergence(p, prep.mean_theta())
                    for eps in epss:
                        rels = [prep.release(epsilon=eps, delta=1e-5, rng=np.random.default_rng(r)) for r in range(3)]
                        kl = float(np.mean([kl_divergence(p, r.theta) for r in rels]))
                        ratio = float(np.median(rels[0].theta[top] / p[top]))
                        rows.append((kl, n, L, S, rho, eps, kl_pub))
                        print(
                            f"  n={n} L={L:<3} S={S:<6g} ρ={rho:<4g} ε={eps:<3g} γ={prep.sensitivity:<7.3g} "
                            f"σ={rels[0].sigma:<8.3g} KL={kl:<9.4g} KL(ε→∞)={kl_free:<8.4g} KL(public)={kl_pub:.4g} "
                            f"top-20 θ/p={ratio:.3g}",
                            flush=True,
                        )
    print("\nBest ten by KL (strict, DP):")
    for kl, n, L, S, rho, eps, kl_pub in sorted(rows)[:10]:
        print(f"  KL {kl:.4g} (public {kl_pub:.4g}, ×{kl / kl_pub:.2f}): n={n} L={L} S={S:g} ρ={rho:g} ε={eps:g}")
    wins = [r for r in rows if r[0] <= r[6]]
    print(f"\nStrict releases at ε ≤ 8 with KL ≤ the public baseline's: {len(wins)} of {len(rows)}")


if __name__ == "__main__":
    main()
