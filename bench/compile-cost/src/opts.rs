//! Command-line options: the `--help` text and its parser.

use std::fs;
use std::path::PathBuf;

use crate::Res;

const HELP: &str = "\
usage: dynakey-compile-cost --repo DIR [options]   (run it as scripts/compile-cost)

  --sizes 10,50,200   entity counts of the dk_/base_ crates
  --reps 3            timed runs per crate and mode (median reported)
  --no-wide           skip the 14-input entity (dk_wide) and its reference dk_1
  --scratch           also time non-incremental compiles of each crate (CARGO_INCREMENTAL=0)
  --idle-wait 120     before each timed run, wait up to this many seconds ...
  --idle-load 0.3     ... until other processes use fewer cores than this (0 = no wait)
  --idle-budget 1800  ... and at most this many seconds of waiting in all
  --out DIR           work dir (default REPO/target/compile-cost)
  --results FILE      also write the Markdown report to FILE, and the samples to FILE
                      with the extension .tsv (e.g. bench/compile-cost/RESULTS.md)
  --report-only TSV   measure nothing: rebuild the report from a samples file
                      (target/compile-cost/samples.tsv, or a committed RESULTS.tsv)
  --macro-stats       also run `cargo +nightly rustc -- -Zmacro-stats` on the dk crate of
                      size 50 (or the middle size); needs the nightly toolchain
  --generate-only     write the crates and stop
";

#[derive(Clone)]
pub(crate) struct Opts {
    pub(crate) repo: PathBuf,
    pub(crate) out: PathBuf,
    pub(crate) sizes: Vec<usize>,
    pub(crate) reps: usize,
    pub(crate) wide: bool,
    pub(crate) scratch: bool,
    pub(crate) idle_wait: u64,
    pub(crate) idle_load: f64,
    pub(crate) idle_budget: f64,
    pub(crate) results: Option<PathBuf>,
    pub(crate) macro_stats: bool,
    pub(crate) generate_only: bool,
    pub(crate) report_only: Option<PathBuf>,
}

pub(crate) fn parse_opts() -> Res<Opts> {
    let mut repo = None;
    let mut out = None;
    let mut o = Opts {
        repo: PathBuf::new(),
        out: PathBuf::new(),
        sizes: vec![10, 50, 200],
        reps: 3,
        wide: true,
        scratch: false,
        idle_wait: 120,
        idle_load: 0.3,
        idle_budget: 1800.0,
        results: None,
        macro_stats: false,
        generate_only: false,
        report_only: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--repo" => repo = Some(PathBuf::from(val("--repo")?)),
            "--out" => out = Some(PathBuf::from(val("--out")?)),
            "--sizes" => {
                o.sizes = val("--sizes")?
                    .split(',')
                    .map(|s| {
                        s.trim()
                            .parse::<usize>()
                            .map_err(|e| format!("--sizes: {e}"))
                    })
                    .collect::<Res<Vec<_>>>()?;
                if o.sizes.contains(&0) {
                    return Err("--sizes: sizes must be positive".into());
                }
            }
            "--reps" => {
                o.reps = val("--reps")?.parse().map_err(|e| format!("--reps: {e}"))?;
                if o.reps == 0 {
                    return Err("--reps must be at least 1".into());
                }
            }
            "--no-wide" => o.wide = false,
            "--scratch" => o.scratch = true,
            "--idle-wait" => {
                o.idle_wait = val("--idle-wait")?
                    .parse()
                    .map_err(|e| format!("--idle-wait: {e}"))?
            }
            "--idle-budget" => {
                o.idle_budget = val("--idle-budget")?
                    .parse()
                    .map_err(|e| format!("--idle-budget: {e}"))?
            }
            "--idle-load" => {
                o.idle_load = val("--idle-load")?
                    .parse()
                    .map_err(|e| format!("--idle-load: {e}"))?
            }
            "--results" => o.results = Some(PathBuf::from(val("--results")?)),
            "--macro-stats" => o.macro_stats = true,
            "--generate-only" => o.generate_only = true,
            "--report-only" => o.report_only = Some(PathBuf::from(val("--report-only")?)),
            "-h" | "--help" => {
                print!("{HELP}");
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other:?}\n{HELP}")),
        }
    }
    o.repo = repo.ok_or("--repo DIR is required (run scripts/compile-cost)")?;
    o.repo = fs::canonicalize(&o.repo).map_err(|e| format!("{}: {e}", o.repo.display()))?;
    o.out = out.unwrap_or_else(|| o.repo.join("target/compile-cost"));
    o.sizes.sort_unstable();
    o.sizes.dedup();
    let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
    for p in [&mut o.results, &mut o.report_only].into_iter().flatten() {
        if p.is_relative() {
            *p = cwd.join(&*p);
        }
    }
    Ok(o)
}
