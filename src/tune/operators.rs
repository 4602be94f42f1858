//! The evolutionary operators: per-generation random streams, DE's
//! adaptive scale factor and rand/1 trial with binomial crossover, and
//! fitness scaling for the GA's roulette.

use super::*;

/// The random generator of generation `g`.
pub(super) fn rng_for(seed: u64, g: usize) -> SmallRng {
    SmallRng::seed_from_u64(crate::rules::zobrist::mix64(
        seed ^ (g as u64 + 1).wrapping_mul(0xd1b5_4a32_d192_ed03),
    ))
}

/// DE's adaptive scale factor: 2 × the mean over genes of the coefficient
/// of variation σ_j / mean_j of the population. Genes are first mapped to
/// their place in the range (0 at the minimum, 1 at the maximum), so that
/// ranges centred on zero do not divide by a mean near zero. Genes whose
/// mean place is 0 are left out.
pub fn adaptive_f(pop: &[Vec<f64>], genes: &[Gene]) -> f64 {
    let n = pop.len() as f64;
    let mut sum = 0.0;
    let mut count = 0;
    for (j, g) in genes.iter().enumerate() {
        let span = g.max - g.min;
        if span <= 0.0 {
            continue;
        }
        let xs: Vec<f64> = pop.iter().map(|x| (x[j] - g.min) / span).collect();
        let mean = xs.iter().sum::<f64>() / n;
        if mean <= 1e-12 {
            continue;
        }
        let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n;
        sum += var.sqrt() / mean;
        count += 1;
    }
    if count == 0 {
        0.0
    } else {
        2.0 * sum / count as f64
    }
}

/// The random draws behind one DE trial.
pub struct DeDraw<'a> {
    /// Three distinct donors, none equal to the target.
    pub r: [usize; 3],
    /// The gene always taken from the mutant.
    pub jrand: usize,
    /// Per gene: `u[j] < cr` takes gene j from the mutant.
    pub u: &'a [f64],
}

/// DE rand/1 with binomial crossover: the trial vector of member `i`,
/// `V = X_r1 + F (X_r2 - X_r3)` reflected into range, crossed with `X_i`.
pub fn de_trial(
    pop: &[Vec<f64>],
    i: usize,
    d: &DeDraw<'_>,
    f: f64,
    cr: f64,
    genes: &[Gene],
) -> Vec<f64> {
    let x = &pop[i];
    let r = d.r;
    (0..x.len())
        .map(|j| {
            if j == d.jrand || d.u[j] < cr {
                let v = pop[r[0]][j] + f * (pop[r[1]][j] - pop[r[2]][j]);
                genes[j].reflect(v)
            } else {
                x[j]
            }
        })
        .collect()
}

/// Picks three distinct indices in 0..n, none equal to `i` (n >= 4).
pub(super) fn three_donors(rng: &mut SmallRng, n: usize, i: usize) -> [usize; 3] {
    let mut r = [usize::MAX; 3];
    let mut k = 0;
    while k < 3 {
        let c = rng.random_range(0..n);
        if c != i && !r[..k].contains(&c) {
            r[k] = c;
            k += 1;
        }
    }
    r
}

/// Fitness shifted and scaled to [0, 1] (all 1 when equal).
pub fn scaled(fit: &[f64]) -> Vec<f64> {
    let lo = fit.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = fit.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if hi <= lo || !lo.is_finite() || !hi.is_finite() {
        return vec![1.0; fit.len()];
    }
    fit.iter().map(|f| (f - lo) / (hi - lo)).collect()
}
