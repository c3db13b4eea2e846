//! Ratios for the benchmarks: each case timed in turn, round after round,
//! so a slow moment of a shared machine falls on every case alike; the
//! median of the rounds per case, and its ratio to the first case.

use std::time::{Duration, Instant};

/// One case: its name, and how long `n` calls of it take (what is timed
/// is up to the case: see [`batched`]).
pub type Case<'a> = (&'static str, Box<dyn Fn(u32) -> Duration + 'a>);

/// A case timing `n` calls of `f`.
pub fn timed<'a>(name: &'static str, f: impl Fn() + 'a) -> Case<'a> {
    (
        name,
        Box::new(move |n| {
            let t = Instant::now();
            for _ in 0..n {
                f();
            }
            t.elapsed()
        }),
    )
}

/// A case timing `n` calls of `f`, each on an input `setup` made before
/// the timing starts (as criterion's `iter_batched`).
pub fn batched<'a, I>(
    name: &'static str,
    setup: impl Fn() -> I + 'a,
    f: impl Fn(I) + 'a,
) -> Case<'a> {
    (
        name,
        Box::new(move |n| {
            let inputs: Vec<I> = (0..n).map(|_| setup()).collect();
            let t = Instant::now();
            for i in inputs {
                f(i);
            }
            t.elapsed()
        }),
    )
}

/// Times `cases` in `rounds` interleaved rounds of about `budget` each
/// and prints a line per case: `label`, name, median time per call,
/// ratio to the first case. Returns the medians in seconds per call.
pub fn ratios(label: &str, cases: &[Case<'_>], rounds: usize, budget: Duration) -> Vec<f64> {
    // Calls per round: as many as fit the budget, from one trial run.
    let counts: Vec<u32> = cases
        .iter()
        .map(|(_, f)| {
            let once = f(16).as_secs_f64() / 16.0;
            ((budget.as_secs_f64() / once.max(1e-9)) as u32).clamp(1, 1_000_000)
        })
        .collect();
    let mut samples = vec![Vec::with_capacity(rounds); cases.len()];
    for _ in 0..rounds {
        for (i, (_, f)) in cases.iter().enumerate() {
            samples[i].push(f(counts[i]).as_secs_f64() / f64::from(counts[i]));
        }
    }
    let medians: Vec<f64> = samples
        .iter_mut()
        .map(|s| {
            s.sort_by(f64::total_cmp);
            s[s.len() / 2]
        })
        .collect();
    for ((name, _), m) in cases.iter().zip(&medians) {
        let (value, unit) = if *m < 1e-6 {
            (m * 1e9, "ns")
        } else {
            (m * 1e6, "us")
        };
        println!(
            "  {label:17} {name:26} {value:8.1} {unit}  {:5.2}x",
            m / medians[0]
        );
    }
    medians
}
