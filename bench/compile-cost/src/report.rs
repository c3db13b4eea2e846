//! The samples file (every timed run, and the run's description) and the
//! Markdown report built from it.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use crate::measure::{sh, Inc, Mode, Results, Sample, Stats};
use crate::opts::Opts;
use crate::Res;

fn ratio(a: f64, b: f64) -> String {
    format!("{:.2}×", a / b)
}

/// What the report says about the run, captured when it starts.
#[derive(Clone, Debug, Default)]
pub(crate) struct RunInfo {
    started: String,
    pub(crate) minutes: f64,
    command: String,
    commit: String,
    branch: String,
    /// Uncommitted changes to the library crates.
    dirty: bool,
    rustc: String,
    cores: usize,
}

impl RunInfo {
    pub(crate) fn capture(o: &Opts) -> Self {
        let mut cmd: Vec<String> = Vec::new();
        let mut args = std::env::args().skip(1);
        while let Some(a) = args.next() {
            if a == "--repo" {
                args.next();
            } else {
                cmd.push(a);
            }
        }
        let lib = ["dynakey", "dynakey-derive", "dynakey-runtime"];
        let mut status = vec!["status", "--porcelain", "--"];
        status.extend(lib);
        let dirty = sh("git", &status, &o.repo);
        RunInfo {
            started: sh("date", &["-u", "+%Y-%m-%d %H:%M UTC"], &o.repo),
            minutes: 0.0,
            command: format!("scripts/compile-cost {}", cmd.join(" "))
                .trim()
                .to_string(),
            commit: sh("git", &["rev-parse", "--short", "HEAD"], &o.repo),
            branch: sh("git", &["rev-parse", "--abbrev-ref", "HEAD"], &o.repo),
            dirty: !(dirty.is_empty() || dirty == "?"),
            rustc: sh("rustc", &["--version"], &o.repo),
            cores: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(0),
        }
    }
}

const SAMPLE_COLUMNS: &str =
    "crate\tcommand\tincremental\tcargo_wall_s\trustc_wall_s\trustc_cpu_s\tpeak_mb\tothers_cores";

/// Every timed run as tab-separated values, the run's description in
/// `# key<TAB>value` lines first; `--report-only FILE` reads it back.
pub(crate) fn save_samples(path: &Path, info: &RunInfo, res: &Results) -> Res<()> {
    let mut t = String::new();
    for (k, v) in [
        ("started", info.started.clone()),
        ("minutes", format!("{:.1}", info.minutes)),
        ("command", info.command.clone()),
        ("commit", info.commit.clone()),
        ("branch", info.branch.clone()),
        ("dirty", info.dirty.to_string()),
        ("rustc", info.rustc.clone()),
        ("cores", info.cores.to_string()),
    ] {
        let _ = writeln!(t, "# {k}\t{v}");
    }
    let _ = writeln!(t, "{SAMPLE_COLUMNS}");
    for ((name, mode, inc), st) in res {
        for s in &st.samples {
            let _ = writeln!(
                t,
                "{name}\t{}\t{}\t{:.3}\t{:.3}\t{:.3}\t{:.1}\t{:.3}",
                mode.cmd(),
                *inc == Inc::Incremental,
                s.cargo_wall,
                s.rustc_wall,
                s.rustc_cpu,
                s.peak_mb,
                s.others
            );
        }
    }
    fs::write(path, t).map_err(|e| format!("{}: {e}", path.display()))
}

pub(crate) fn load_samples(path: &Path) -> Res<(RunInfo, Results)> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut info = RunInfo::default();
    let mut res = Results::new();
    for (i, line) in text.lines().enumerate() {
        let bad = |what: &str| format!("{}:{}: {what}: {line:?}", path.display(), i + 1);
        if let Some(kv) = line.strip_prefix("# ") {
            let (k, v) = kv
                .split_once('\t')
                .ok_or_else(|| bad("expected `# key<TAB>value`"))?;
            let v = v.to_string();
            match k {
                "started" => info.started = v,
                "minutes" => info.minutes = v.parse().map_err(|_| bad("minutes"))?,
                "command" => info.command = v,
                "commit" => info.commit = v,
                "branch" => info.branch = v,
                "dirty" => info.dirty = v == "true",
                "rustc" => info.rustc = v,
                "cores" => info.cores = v.parse().map_err(|_| bad("cores"))?,
                _ => {}
            }
            continue;
        }
        if line.trim().is_empty() || line == SAMPLE_COLUMNS {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != 8 {
            return Err(bad("expected 8 columns"));
        }
        let mode = match f[1] {
            "check" => Mode::Check,
            "build" => Mode::Build,
            _ => return Err(bad("command")),
        };
        let inc = if f[2] == "true" {
            Inc::Incremental
        } else {
            Inc::Scratch
        };
        let num = |j: usize| f[j].parse::<f64>().map_err(|_| bad("number"));
        let s = Sample {
            cargo_wall: num(3)?,
            rustc_wall: num(4)?,
            rustc_cpu: num(5)?,
            peak_mb: num(6)?,
            others: num(7)?,
        };
        res.entry((f[0].to_string(), mode, inc))
            .or_insert_with(|| Stats {
                samples: Vec::new(),
            })
            .samples
            .push(s);
    }
    Ok((info, res))
}

/// Other load in at least half of a measurement's runs.
fn contended(s: &Stats, threshold: f64) -> bool {
    2 * s.samples.iter().filter(|x| x.others >= threshold).count() >= s.samples.len()
}

pub(crate) fn report(o: &Opts, res: &Results, info: &RunInfo, regenerated: bool) -> String {
    let mut md = String::new();
    let busy_at = o.idle_load.max(0.3);
    let reps = res.values().map(|s| s.samples.len()).max().unwrap_or(0);
    let _ = writeln!(md, "## Compile cost of `#[derive(DynamoEntity)]`\n");
    let _ = writeln!(
        md,
        "Run {} by `{}` on commit `{}` ({}{}), {}, {} cores; {:.0} min in all{}.\n",
        info.started,
        info.command,
        info.commit,
        info.branch,
        if info.dirty {
            ", with uncommitted changes to the library"
        } else {
            ""
        },
        info.rustc,
        info.cores,
        info.minutes,
        if regenerated {
            " (this report regenerated from its samples file)"
        } else {
            ""
        }
    );
    let _ = writeln!(
        md,
        "Each crate is a library of N entities with one use site each (key, to_item, from_item, \
         a GSI sort-key condition in a query, a typed update, a get). *dynakey*: \
         `#[derive(DynamoEntity)]` with pk, sk and two GSIs (one sparse) over ten fields. \
         *baseline*: the same structs with `serde` derives, `format!` keys and `serde_dynamo`, \
         the same use sites on the SDK client. Incremental: `cargo check` / `cargo build` after \
         appending a comment to the crate's `lib.rs` (an edit that changes nothing), \
         dependencies built, default dev profile. Median of {reps} runs, interleaved (each round \
         times every crate once). Peak: maximum RSS of the crate's `rustc`.\n"
    );

    let timed: Vec<&Sample> = res.values().flat_map(|s| s.samples.iter()).collect();
    let busy = timed.iter().filter(|s| s.others >= busy_at).count();
    let worst = timed.iter().map(|s| s.others).fold(0.0, f64::max);
    let _ = writeln!(
        md,
        "The machine is shared: other processes used at least {busy_at:.1} cores during {busy} \
         of the {} timed runs (at most {worst:.2} of {} cores). Wall times marked † had such \
         load in most of their runs and are inflated; the CPU time of the crate's `rustc` is \
         hardly affected, so ratios and growth are given on CPU time.\n",
        timed.len(),
        info.cores
    );

    let get = |name: &str, mode: Mode, inc: Inc| res.get(&(name.to_string(), mode, inc));
    let wall = |s: &Stats| {
        format!(
            "{:.2} s{}",
            s.wall(),
            if contended(s, busy_at) { " †" } else { "" }
        )
    };
    let cpu = |s: &Stats| s.med(|x| x.rustc_cpu);
    let has_scratch = res.keys().any(|k| k.2 == Inc::Scratch);
    let has_wide = res.keys().any(|k| k.0 == "dk_wide");
    for inc in [Inc::Incremental, Inc::Scratch] {
        if inc == Inc::Scratch && !has_scratch {
            continue;
        }
        let _ = writeln!(
            md,
            "### {}\n",
            match inc {
                Inc::Incremental => "Incremental (after touching `lib.rs`)",
                Inc::Scratch =>
                    "Non-incremental (`CARGO_INCREMENTAL=0`: the crate alone compiled from nothing)",
            }
        );
        let rows: Vec<(usize, [&Stats; 4])> = o
            .sizes
            .iter()
            .filter_map(|&n| {
                Some((
                    n,
                    [
                        get(&format!("dk_{n}"), Mode::Check, inc)?,
                        get(&format!("base_{n}"), Mode::Check, inc)?,
                        get(&format!("dk_{n}"), Mode::Build, inc)?,
                        get(&format!("base_{n}"), Mode::Build, inc)?,
                    ],
                ))
            })
            .collect();
        let _ = writeln!(md, "Wall time of the `cargo` command and peak memory:\n");
        let _ = writeln!(
            md,
            "| entities | dynakey check | baseline check | dynakey build | baseline build | dynakey peak MB check / build | baseline peak MB check / build |"
        );
        let _ = writeln!(md, "|---:|---:|---:|---:|---:|---:|---:|");
        for (n, [dc, bc, db, bb]) in &rows {
            let _ = writeln!(
                md,
                "| {n} | {} | {} | {} | {} | {:.0} / {:.0} | {:.0} / {:.0} |",
                wall(dc),
                wall(bc),
                wall(db),
                wall(bb),
                dc.peak(),
                db.peak(),
                bc.peak(),
                bb.peak()
            );
        }
        let _ = writeln!(
            md,
            "\nCPU time (user + system) of the crate's `rustc`; ratio dynakey / baseline:\n"
        );
        let _ = writeln!(
            md,
            "| entities | dynakey check | baseline check | ratio | dynakey build | baseline build | ratio | peak ratio check / build |"
        );
        let _ = writeln!(md, "|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (n, [dc, bc, db, bb]) in &rows {
            let _ = writeln!(
                md,
                "| {n} | {:.2} s | {:.2} s | {} | {:.2} s | {:.2} s | {} | {} / {} |",
                cpu(dc),
                cpu(bc),
                ratio(cpu(dc), cpu(bc)),
                cpu(db),
                cpu(bb),
                ratio(cpu(db), cpu(bb)),
                ratio(dc.peak(), bc.peak()),
                ratio(db.peak(), bb.peak())
            );
        }
        let _ = writeln!(md);

        // Growth: factor between sizes and the marginal cost per entity.
        if rows.len() >= 2 {
            let mut head = String::from("| rustc CPU time | ");
            let mut rule = String::from("|---|");
            for w in rows.windows(2) {
                let (a, b) = (w[0].0, w[1].0);
                let _ = write!(
                    head,
                    "{a} → {b} (×{:.0} entities) | ms per entity | ",
                    b as f64 / a as f64
                );
                rule.push_str("---:|---:|");
            }
            let (lo, hi) = (rows[0].0, rows[rows.len() - 1].0);
            let _ = write!(head, "peak MB per entity, {lo} → {hi} |");
            rule.push_str("---:|");
            let _ = writeln!(
                md,
                "Growth: time factor per step and the marginal cost of one more entity (level ms per \
                 entity from step to step = linear):\n"
            );
            let _ = writeln!(md, "{head}\n{rule}");
            for (label, col) in [
                ("dynakey check", 0),
                ("baseline check", 1),
                ("dynakey build", 2),
                ("baseline build", 3),
            ] {
                let mut row = format!("| {label} | ");
                for w in rows.windows(2) {
                    let (x, y) = (w[0].1[col], w[1].1[col]);
                    let _ = write!(
                        row,
                        "×{:.2} | {:.0} | ",
                        cpu(y) / cpu(x),
                        1000.0 * (cpu(y) - cpu(x)) / (w[1].0 - w[0].0) as f64
                    );
                }
                let (x, y) = (rows[0].1[col], rows[rows.len() - 1].1[col]);
                let _ = writeln!(row, "{:.1} |", (y.peak() - x.peak()) / (hi - lo) as f64);
                md.push_str(&row);
            }
            let (n, [dc, bc, db, bb]) = rows[rows.len() - 1];
            let _ = writeln!(
                md,
                "\nAt N = {n}, dynakey over the baseline, per entity: `cargo check` {:+.0} ms CPU and \
                 {:+.1} MB peak; `cargo build` {:+.0} ms CPU and {:+.1} MB peak.\n",
                1000.0 * (cpu(dc) - cpu(bc)) / n as f64,
                (dc.peak() - bc.peak()) / n as f64,
                1000.0 * (cpu(db) - cpu(bb)) / n as f64,
                (db.peak() - bb.peak()) / n as f64
            );
        }

        if has_wide {
            let _ = writeln!(
                md,
                "The 14-input entity (wall time †-marked as above; CPU time of its `rustc`):\n"
            );
            let _ = writeln!(md, "| crate | what | check | check CPU | check peak MB | build | build CPU | build peak MB |");
            let _ = writeln!(md, "|---|---|---:|---:|---:|---:|---:|---:|");
            for (name, what) in [
                (
                    "dk_wide",
                    "one entity, GSI sort key of 14 inputs, typed update setting all 14",
                ),
                ("dk_1", "one typical entity (reference)"),
            ] {
                if let (Some(c), Some(b)) =
                    (get(name, Mode::Check, inc), get(name, Mode::Build, inc))
                {
                    let _ = writeln!(
                        md,
                        "| `{name}` | {what} | {} | {:.2} s | {:.0} | {} | {:.2} s | {:.0} |",
                        wall(c),
                        cpu(c),
                        c.peak(),
                        wall(b),
                        cpu(b),
                        b.peak()
                    );
                }
            }
            let _ = writeln!(md);
        }
    }

    // Every measurement.
    let _ = writeln!(
        md,
        "<details><summary>Every measurement</summary>\n\n\
         cargo: wall time of the cargo command (median, min–max); rustc: the crate's rustc, \
         median wall and CPU (user + system) time; others: cores used by other processes, \
         median and most, over the runs.\n"
    );
    let _ = writeln!(
        md,
        "| crate | command | cargo s (min–max) | rustc wall s | rustc CPU s | peak MB | others |"
    );
    let _ = writeln!(md, "|---|---|---:|---:|---:|---:|---:|");
    let mut names: Vec<&String> = Vec::new();
    for (n, _, _) in res.keys() {
        if !names.contains(&n) {
            names.push(n);
        }
    }
    names.sort_by_key(|n| crate_order(n));
    for name in names {
        for inc in [Inc::Incremental, Inc::Scratch] {
            for mode in [Mode::Check, Mode::Build] {
                if let Some(s) = get(name, mode, inc) {
                    let _ = writeln!(
                        md,
                        "| `{name}` | {}{} | {:.2} ({:.2}–{:.2}) | {:.2} | {:.2} | {:.0} | {:.2}, {:.2} |",
                        mode.cmd(),
                        if inc == Inc::Scratch { ", non-incremental" } else { "" },
                        s.wall(),
                        s.min_wall(),
                        s.max_wall(),
                        s.med(|x| x.rustc_wall),
                        s.med(|x| x.rustc_cpu),
                        s.peak(),
                        s.med(|x| x.others),
                        s.others()
                    );
                }
            }
        }
    }
    let _ = writeln!(md, "\n</details>\n");
    md
}

/// dk_10, base_10, dk_50, …, then dk_wide, dk_1.
fn crate_order(name: &str) -> (usize, usize, usize) {
    if name == "dk_wide" {
        return (1, 0, 0);
    }
    let (kind, n) = name.split_once('_').unwrap_or((name, "0"));
    let n: usize = n.parse().unwrap_or(0);
    if name == "dk_1" {
        return (2, 0, 0);
    }
    (0, n, usize::from(kind != "dk"))
}
