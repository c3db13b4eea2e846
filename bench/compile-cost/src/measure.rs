//! Running cargo and measuring: the machine's load, waiting for it to drop,
//! one cargo run through `/usr/bin/time`, and the timed runs of every crate.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::generate::{touch, Crate};
use crate::opts::Opts;
use crate::Res;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) enum Mode {
    Check,
    Build,
}

impl Mode {
    pub(crate) fn cmd(self) -> &'static str {
        match self {
            Mode::Check => "check",
            Mode::Build => "build",
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Sample {
    /// Wall time of the `cargo` invocation.
    pub(crate) cargo_wall: f64,
    /// Wall time of the crate's rustc.
    pub(crate) rustc_wall: f64,
    /// User + system CPU time of the crate's rustc.
    pub(crate) rustc_cpu: f64,
    /// Peak RSS of the crate's rustc, MB.
    pub(crate) peak_mb: f64,
    /// Average cores used by other processes during the run.
    pub(crate) others: f64,
}

/// Busy CPU time of the whole machine, seconds (from /proc/stat).
fn busy_secs() -> f64 {
    let Ok(s) = fs::read_to_string("/proc/stat") else {
        return 0.0;
    };
    let Some(line) = s.lines().next() else {
        return 0.0;
    };
    let v: Vec<f64> = line
        .split_whitespace()
        .skip(1)
        .filter_map(|x| x.parse().ok())
        .collect();
    // user nice system idle iowait irq softirq steal
    let busy: f64 = v
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 3 && *i != 4 && *i < 8)
        .map(|(_, x)| x)
        .sum();
    busy / 100.0 // USER_HZ
}

/// Cores used by other processes over `secs` while this tool is idle.
fn others_load(secs: f64) -> f64 {
    let b0 = busy_secs();
    std::thread::sleep(Duration::from_secs_f64(secs));
    (busy_secs() - b0) / secs
}

/// Waits until other processes use fewer than `o.idle_load` cores (at most
/// `o.idle_wait` seconds, and what is left of `budget`). Returns the seconds
/// waited.
fn wait_idle(o: &Opts, budget: &mut f64) -> f64 {
    if o.idle_load <= 0.0 || o.idle_wait == 0 || *budget <= 0.0 {
        return 0.0;
    }
    let waited = wait_idle_for(o, (o.idle_wait as f64).min(*budget));
    *budget -= waited;
    if *budget <= 0.0 {
        eprintln!(
            "   the --idle-budget of {:.0} s is spent: no more waiting",
            o.idle_budget
        );
    }
    waited
}

fn wait_idle_for(o: &Opts, max: f64) -> f64 {
    let t0 = Instant::now();
    let mut said = false;
    loop {
        let l = others_load(1.0);
        let waited = t0.elapsed().as_secs_f64();
        if l < o.idle_load {
            if said {
                eprintln!("   machine idle after {waited:.0} s");
            }
            return waited;
        }
        if waited >= max {
            eprintln!("   still {l:.2} cores busy after {waited:.0} s: measuring anyway (see the others column)");
            return waited;
        }
        if !said {
            eprintln!("   other processes use {l:.2} cores: waiting (up to {max:.0} s)");
            said = true;
        }
    }
}

pub(crate) struct Runner {
    pub(crate) ws: PathBuf,
    pub(crate) target: PathBuf,
    pub(crate) wrap: PathBuf,
    pub(crate) rec_dir: PathBuf,
    pub(crate) log: PathBuf,
}

fn parse_time_record(path: &Path) -> Res<(f64, f64, f64, f64)> {
    let t = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    // /usr/bin/time may prefix "Command exited with non-zero status N".
    let line = t.lines().last().unwrap_or("");
    let v: Vec<f64> = line
        .split_whitespace()
        .filter_map(|x| x.parse().ok())
        .collect();
    if v.len() != 4 {
        return Err(format!(
            "{}: unexpected /usr/bin/time output {t:?}",
            path.display()
        ));
    }
    Ok((v[0], v[1], v[2], v[3]))
}

impl Runner {
    /// Runs `cargo <args>` in the generated workspace; measures the rustc of
    /// `measure` if given.
    pub(crate) fn cargo(
        &self,
        args: &[&str],
        env: &[(&str, &str)],
        measure: Option<&str>,
    ) -> Res<Option<Sample>> {
        let cargo_rec = self.rec_dir.join("cargo.time");
        let rustc_rec = self.rec_dir.join("rustc.time");
        let _ = fs::remove_file(&cargo_rec);
        let _ = fs::remove_file(&rustc_rec);
        let log = fs::File::create(&self.log).map_err(|e| e.to_string())?;
        let mut cmd = Command::new("/usr/bin/time");
        cmd.args(["-f", "%e %U %S %M", "-o"])
            .arg(&cargo_rec)
            .arg("cargo")
            .args(args)
            .current_dir(&self.ws)
            .env("CARGO_TARGET_DIR", &self.target)
            .env("RUSTC_WRAPPER", &self.wrap)
            .env("CARGO_TERM_COLOR", "never")
            .env("CC_CRATE", measure.unwrap_or(""))
            .env("CC_RECORD", &rustc_rec)
            .stdin(Stdio::null())
            .stdout(log.try_clone().map_err(|e| e.to_string())?)
            .stderr(log);
        for (k, v) in env {
            cmd.env(k, v);
        }
        let b0 = busy_secs();
        let t0 = Instant::now();
        let status = cmd
            .status()
            .map_err(|e| format!("running /usr/bin/time cargo: {e}"))?;
        let wall = t0.elapsed().as_secs_f64();
        let busy = busy_secs() - b0;
        if !status.success() {
            let text = fs::read_to_string(&self.log).unwrap_or_default();
            let tail: Vec<&str> = text.lines().rev().take(60).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            return Err(format!(
                "`cargo {}` failed in {}:\n{}",
                args.join(" "),
                self.ws.display(),
                tail.join("\n")
            ));
        }
        let Some(name) = measure else { return Ok(None) };
        if !rustc_rec.exists() {
            return Err(format!(
                "`cargo {}` did not run rustc for {name} (was the crate fresh?); log: {}",
                args.join(" "),
                self.log.display()
            ));
        }
        let (rw, ru, rs, rkb) = parse_time_record(&rustc_rec)?;
        let (_, cu, cs, _) = parse_time_record(&cargo_rec)?;
        let others = ((busy - (cu + cs)) / wall).max(0.0);
        Ok(Some(Sample {
            cargo_wall: wall,
            rustc_wall: rw,
            rustc_cpu: ru + rs,
            peak_mb: rkb / 1024.0,
            others,
        }))
    }
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = v.len();
    if n == 0 {
        f64::NAN
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) enum Inc {
    Incremental,
    Scratch,
}

#[derive(Clone, Debug)]
pub(crate) struct Stats {
    pub(crate) samples: Vec<Sample>,
}

impl Stats {
    pub(crate) fn med(&self, f: impl Fn(&Sample) -> f64) -> f64 {
        median(&self.samples.iter().map(f).collect::<Vec<_>>())
    }
    pub(crate) fn wall(&self) -> f64 {
        self.med(|s| s.cargo_wall)
    }
    pub(crate) fn min_wall(&self) -> f64 {
        self.samples
            .iter()
            .map(|s| s.cargo_wall)
            .fold(f64::INFINITY, f64::min)
    }
    pub(crate) fn max_wall(&self) -> f64 {
        self.samples
            .iter()
            .map(|s| s.cargo_wall)
            .fold(0.0, f64::max)
    }
    pub(crate) fn peak(&self) -> f64 {
        self.samples.iter().map(|s| s.peak_mb).fold(0.0, f64::max)
    }
    pub(crate) fn others(&self) -> f64 {
        self.samples.iter().map(|s| s.others).fold(0.0, f64::max)
    }
}

pub(crate) type Results = BTreeMap<(String, Mode, Inc), Stats>;

pub(crate) fn measure(o: &Opts, r: &Runner, all: &[Crate]) -> Res<Results> {
    let mut res = Results::new();
    let mut serial = 0u64;
    let mut budget = o.idle_budget;
    let incs: &[Inc] = if o.scratch {
        &[Inc::Incremental, Inc::Scratch]
    } else {
        &[Inc::Incremental]
    };
    // Runs are interleaved: each repetition times every crate once, so a
    // slow drift of the machine's speed (this is a shared VM) lands on the
    // dynakey crate and its baseline alike instead of skewing their ratio.
    for mode in [Mode::Check, Mode::Build] {
        for &inc in incs {
            let env: &[(&str, &str)] = match inc {
                Inc::Incremental => &[],
                Inc::Scratch => &[("CARGO_INCREMENTAL", "0")],
            };
            // Untimed: brings the incremental state (and cargo's
            // fingerprint after a CARGO_INCREMENTAL switch) up to date.
            for c in all {
                touch(&r.ws, c, &mut serial)?;
                r.cargo(
                    &["-q", mode.cmd(), "-p", c.name.as_str()],
                    env,
                    Some(&c.name),
                )?;
            }
            let mut samples: Vec<Vec<Sample>> = all.iter().map(|_| Vec::new()).collect();
            for rep in 1..=o.reps {
                for (c, samples) in all.iter().zip(samples.iter_mut()) {
                    let args = ["-q", mode.cmd(), "-p", c.name.as_str()];
                    touch(&r.ws, c, &mut serial)?;
                    wait_idle(o, &mut budget);
                    let s = r.cargo(&args, env, Some(&c.name))?.expect("measured");
                    eprintln!(
                        "  {:<8} {} {:<11} {}/{}: {:6.2} s  (rustc {:.2} s wall, {:.2} s cpu, {:.0} MB; others {:.2} cores)",
                        c.name,
                        mode.cmd(),
                        format!("{inc:?}").to_lowercase(),
                        rep,
                        o.reps,
                        s.cargo_wall,
                        s.rustc_wall,
                        s.rustc_cpu,
                        s.peak_mb,
                        s.others
                    );
                    samples.push(s);
                }
            }
            for (c, samples) in all.iter().zip(samples) {
                res.insert((c.name.clone(), mode, inc), Stats { samples });
            }
        }
    }
    Ok(res)
}

pub(crate) fn sh(cmd: &str, args: &[&str], dir: &Path) -> String {
    Command::new(cmd)
        .args(args)
        .current_dir(dir)
        .stderr(Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "?".into())
}
