//! Compile-cost benchmark of `#[derive(DynamoEntity)]` (issue 10).
//!
//! ```sh
//! scripts/compile-cost --sizes 3 --reps 1       # smoke test (minutes, mostly dependencies)
//! scripts/compile-cost                          # N = 10, 50, 200 + the 14-input entity
//! scripts/compile-cost --scratch --reps 5 --macro-stats \
//!     --results bench/compile-cost/RESULTS.md   # the committed run (about an hour on 2 cores)
//! scripts/compile-cost --report-only bench/compile-cost/RESULTS.tsv   # report again, measure nothing
//! ```
//!
//! What it does:
//!
//! 1. Generates, under `target/compile-cost/ws` (a throwaway workspace whose
//!    `Cargo.lock` is copied from the repository's, so every dependency has
//!    the repository's version), one library crate per kind and size:
//!    - `dk_<N>`: N typical entities with `#[derive(DynamoEntity)]` (pk, sk,
//!      two GSIs, one sparse, ten fields: `String`, `Uuid`, `bool`,
//!      `time::Date`, `u32` as `d8`, `i64` as `n12`, `Option<String>`,
//!      `Vec<String>`), each with one `async` use site calling `key`,
//!      `to_item`, `from_item`, a GSI sort-key condition in a query, a typed
//!      update of five fields (GSI key rewrites included) and a get;
//!    - `base_<N>`: the same structs with serde derives, hand-written
//!      `format!` keys for the same templates, the codec through
//!      `serde_dynamo` and the same use sites on the raw SDK client;
//!    - `dk_wide`: one entity whose GSI sort key has 14 inputs, with a typed
//!      update setting all 14 (the DYNA226 fold at its widest), and `dk_1`
//!      (one typical entity) to compare it with.
//!
//!    `dynakey` is a path dependency on this repository's crate with
//!    `default-features = false` (no SQLite); `aws-sdk-dynamodb` has no TLS,
//!    as in the workspace. The dev profile is cargo's default (what a user
//!    crate gets). All crates share `target/compile-cost/target`; nothing
//!    touches the repository's own `target/debug`.
//! 2. Warms up: `cargo build -p C` and `cargo check -p C` for every crate
//!    (dependencies are compiled once per feature set and mode).
//! 3. For each mode (`check`, `build`): one untimed incremental run of every
//!    crate, then `--reps` rounds that time each crate once (interleaved, so
//!    a drift of the machine's speed hits a crate and its baseline alike),
//!    each run after appending a comment to the crate's `lib.rs`. Recorded per run: the wall time of the `cargo` invocation
//!    (what a user waits for), the wall and CPU time and the peak RSS of the
//!    crate's own `rustc` (through a `RUSTC_WRAPPER` running
//!    `/usr/bin/time`, so it is the compiler's peak, not cargo's), and the
//!    cores other processes used meanwhile (`/proc/stat` minus cargo's own
//!    CPU time). Before each timed run it waits (up to `--idle-wait` seconds
//!    per run, `--idle-budget` in all) until other processes use fewer than
//!    `--idle-load` cores: on a shared 2-core machine load inflates wall
//!    times, so the report marks loaded measurements and computes ratios
//!    and growth on the compiler's CPU time, which load hardly changes. With
//!    `--scratch`, the same again non-incremental (`CARGO_INCREMENTAL=0`:
//!    the crate alone compiled from nothing).
//! 4. Writes every timed run to `target/compile-cost/samples.tsv`, prints the
//!    tables (medians; wall and CPU time, peak memory, ratios dynakey /
//!    baseline, growth 10 → 50 → 200 with the marginal cost per entity, the
//!    14-input entity) and writes them as Markdown to
//!    `target/compile-cost/report.md`; with `--results FILE.md`, also to
//!    `FILE.md` and the samples to `FILE.tsv`.
//! 5. With `--macro-stats`: `cargo +nightly rustc -p dk_50 --profile check
//!    -- -Zmacro-stats` (and the same for `base_50`) in a separate target
//!    dir, appended to the report: lines and bytes each derive expands to.
//!    Only this option uses nightly.

mod generate;
mod measure;
mod opts;
mod report;

use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

use generate::{crates, generate, touch, Crate};
use measure::{measure, Mode, Results, Runner};
use opts::{parse_opts, Opts};
use report::{load_samples, report, save_samples, RunInfo};

/// Errors are messages for the user: `main` prints them and exits 1.
type Res<T> = Result<T, String>;

/// `-Zmacro-stats` of the dk and base crates of size 50 (or the middle
/// size), as Markdown: optional, and the only step that needs nightly.
fn macro_stats(o: &Opts, r: &Runner) -> Res<String> {
    let n = if o.sizes.contains(&50) {
        50
    } else {
        o.sizes[o.sizes.len() / 2]
    };
    let mut md = format!(
        "### `-Zmacro-stats` at N = {n}\n\n\
         `cargo +nightly rustc -p <crate> --profile check -- -Zmacro-stats` (nightly, own target dir):\n"
    );
    for c in [Crate::dk(n), Crate::base(n)] {
        let mut serial = 1_000_000u64;
        touch(&r.ws, &c, &mut serial)?;
        eprintln!("== cargo +nightly rustc -p {} --profile check -- -Zmacro-stats (the first run builds the dependencies)", c.name);
        let out = Command::new("cargo")
            .args([
                "+nightly",
                "rustc",
                "-q",
                "-p",
                &c.name,
                "--profile",
                "check",
                "--",
                "-Zmacro-stats",
            ])
            .current_dir(&r.ws)
            .env("CARGO_TARGET_DIR", o.out.join("target-nightly"))
            .env("CARGO_TERM_COLOR", "never")
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cargo +nightly: {e}"))?;
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        if !out.status.success() {
            return Err(format!("cargo +nightly rustc failed:\n{err}"));
        }
        let stats: Vec<&str> = err
            .lines()
            .filter(|l| l.starts_with("macro-stats"))
            .collect();
        if stats.is_empty() {
            return Err(format!("no macro-stats lines in the output:\n{err}"));
        }
        let _ = writeln!(md, "\n```text\n{}\n```", stats.join("\n"));
    }
    Ok(md)
}

fn write_outputs(o: &Opts, md: &str, samples: Option<(&RunInfo, &Results)>) -> Res<()> {
    println!("{md}");
    let path = o.out.join("report.md");
    fs::create_dir_all(&o.out).map_err(|e| format!("{}: {e}", o.out.display()))?;
    fs::write(&path, md).map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!("== report written to {}", path.display());
    if let Some(p) = &o.results {
        fs::write(p, md).map_err(|e| format!("{}: {e}", p.display()))?;
        eprintln!("== and to {}", p.display());
        if let Some((info, res)) = samples {
            let tsv = p.with_extension("tsv");
            save_samples(&tsv, info, res)?;
            eprintln!("== samples written to {}", tsv.display());
        }
    }
    Ok(())
}

fn runner(o: &Opts, ws: PathBuf) -> Res<Runner> {
    let rec_dir = o.out.join("records");
    fs::create_dir_all(&rec_dir).map_err(|e| e.to_string())?;
    Ok(Runner {
        ws,
        target: o.out.join("target"),
        wrap: o.out.join("rustc-wrap.sh"),
        log: rec_dir.join("cargo.log"),
        rec_dir,
    })
}

fn append_macro_stats(o: &Opts, md: &mut String) -> Res<()> {
    if o.macro_stats {
        let all = crates(o);
        let r = runner(o, generate(o, &all)?)?;
        match macro_stats(o, &r) {
            Ok(s) => md.push_str(&s),
            Err(e) => eprintln!("-Zmacro-stats skipped: {e}"),
        }
    }
    Ok(())
}

fn run() -> Res<()> {
    let mut o = parse_opts()?;

    if let Some(path) = o.report_only.clone() {
        // The sizes and crates are the samples file's.
        let (info, res) = load_samples(&path)?;
        let mut sizes: Vec<usize> = res
            .keys()
            .filter_map(|(n, _, _)| n.strip_prefix("base_")?.parse().ok())
            .collect();
        sizes.sort_unstable();
        sizes.dedup();
        o.sizes = sizes;
        o.wide = res.keys().any(|k| k.0 == "dk_wide");
        if o.sizes.is_empty() {
            return Err(format!("{}: no samples", path.display()));
        }
        let mut md = report(&o, &res, &info, true);
        append_macro_stats(&o, &mut md)?;
        return write_outputs(&o, &md, None);
    }

    let all = crates(&o);
    let ws = generate(&o, &all)?;
    eprintln!("== generated {} crates in {}", all.len(), ws.display());
    if o.generate_only {
        return Ok(());
    }
    let r = runner(&o, ws)?;
    let mut info = RunInfo::capture(&o);
    let t0 = Instant::now();

    eprintln!("== warm-up: cargo build and cargo check of each crate (dependencies)");
    for c in &all {
        for mode in [Mode::Build, Mode::Check] {
            let t = Instant::now();
            r.cargo(&["-q", mode.cmd(), "-p", &c.name], &[], None)?;
            eprintln!(
                "  {:<8} {}: {:.1} s",
                c.name,
                mode.cmd(),
                t.elapsed().as_secs_f64()
            );
        }
    }

    eprintln!("== measuring: {} timed runs per crate and mode", o.reps);
    let res = measure(&o, &r, &all)?;
    info.minutes = t0.elapsed().as_secs_f64() / 60.0;
    let samples = o.out.join("samples.tsv");
    save_samples(&samples, &info, &res)?;
    eprintln!("== samples written to {}", samples.display());
    let mut md = report(&o, &res, &info, false);
    append_macro_stats(&o, &mut md)?;
    write_outputs(&o, &md, Some((&info, &res)))
}

fn main() {
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
