//! See the table: the design of every recipe's table, a live view of a
//! table's items, and the embedded engine served as a DynamoDB endpoint.
//!
//! ```text
//! cargo run --example design                       # Markdown, HTML, Workbench model of every table → target/design/
//! cargo run --example design -- docs --out DIR shop tracker
//! cargo run --example design -- list               # the tables
//! cargo run --example design -- markdown shop      # one view to stdout: markdown | html | workbench
//! cargo run --example design -- seed --file data.db [--problems] [TABLE..]   # the recipes' items, in a file
//! cargo run --example design -- load --file prod.db --table shop export/*.json     # a table export (DynamoDB JSON), `-` for stdin
//! cargo run --example design -- live --file data.db --table shop [--limit N] [--html out.html]
//! cargo run --example design -- live --endpoint http://127.0.0.1:8000 --table shop
//! cargo run --example design -- export cfn-json shop-production    # also cfn-yaml, terraform (.tf.json); [--out FILE]
//! cargo run --example design -- verify --file data.db --table shop [--design NAME]   # the live table against the code
//! cargo run --example design -- verify --endpoint http://127.0.0.1:8000 --table shop
//! cargo run --example design -- serve --file data.db --port 8000             # Ctrl-C stops
//! cargo run --example design -- serve --file data.db --allow-origin http://localhost:3000 --credentials KEY:SECRET
//! ```

use std::error::Error;
use std::path::{Path, PathBuf};

use dynakey::changes::ExportReader;
use dynakey::design::TableDesign;
use dynakey::local::{self, Access, Endpoint};
use dynakey::Db;
use dynakey_examples::demo;
use dynakey_examples::designs;
use dynakey_examples::infra;

type Res<T = ()> = Result<T, Box<dyn Error>>;

const USAGE: &str = "usage: design [docs [--out DIR] [TABLE..] | list | markdown|html|workbench TABLE |
              seed --file PATH [--problems] [TABLE..] |
              load --file PATH --table NAME [--design NAME] EXPORT_FILE.. (- reads stdin) |
              live (--file PATH | --endpoint URL) --table NAME [--design NAME] [--limit N] [--html OUT] [--markdown OUT] |
              export cfn-json|cfn-yaml|terraform TABLE [--out FILE] |
              verify (--file PATH | --endpoint URL) --table NAME [--design NAME] |
              serve (--file PATH | --memory) [--port PORT] [--allow-origin ORIGIN].. [--credentials KEY:SECRET]]";

/// Flags (`--name value`, or `--name` alone) and the rest, in order.
struct Args {
    flags: Vec<(String, Option<String>)>,
    rest: Vec<String>,
}

impl Args {
    fn parse(args: impl Iterator<Item = String>, switches: &[&str]) -> Res<Self> {
        let mut a = Args {
            flags: Vec::new(),
            rest: Vec::new(),
        };
        let mut it = args.peekable();
        while let Some(x) = it.next() {
            match x.strip_prefix("--") {
                Some(name) if switches.contains(&name) => a.flags.push((name.to_owned(), None)),
                Some(name) => {
                    let v = it
                        .next()
                        .ok_or(format!("--{name} needs a value\n{USAGE}"))?;
                    a.flags.push((name.to_owned(), Some(v)));
                }
                None => a.rest.push(x),
            }
        }
        Ok(a)
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.flags
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.flags
            .iter()
            .filter(move |(n, _)| n == name)
            .filter_map(|(_, v)| v.as_deref())
    }

    fn has(&self, name: &str) -> bool {
        self.flags.iter().any(|(n, _)| n == name)
    }
}

fn design(name: &str) -> Res<TableDesign> {
    let entry = designs::find(name)
        .or_else(|| {
            name.rsplit_once('-')
                .and_then(|(base, _)| designs::find(base))
        })
        .ok_or_else(|| format!("no table named {name:?} (`design list` lists them)"))?;
    Ok((entry.build)()?)
}

fn docs(args: &Args) -> Res {
    let out = PathBuf::from(args.get("out").unwrap_or("target/design"));
    std::fs::create_dir_all(&out)?;
    let names: Vec<&str> = if args.rest.is_empty() {
        designs::ALL.iter().map(|e| e.name).collect()
    } else {
        args.rest.iter().map(String::as_str).collect()
    };
    for name in names {
        let d = design(name)?;
        for (ext, text) in [
            ("md", d.markdown()),
            ("html", d.html()),
            ("workbench.json", d.workbench()),
        ] {
            std::fs::write(out.join(format!("{}.{ext}", d.name())), text)?;
        }
        println!(
            "{:<22} {n}.md  {n}.html  {n}.workbench.json",
            d.name(),
            n = out.join(d.name()).display()
        );
    }
    Ok(())
}

fn list() {
    for e in designs::ALL {
        let recipe = e
            .recipe
            .map_or(String::new(), |r| format!("(cargo run --example {r})"));
        println!("{:<22} {recipe}", e.name);
    }
    for t in infra::tables() {
        if designs::find(t.name).is_none() {
            println!("{:<22} (export and verify only)", t.name);
        }
    }
}

async fn seed(args: &Args) -> Res {
    let path = args.get("file").ok_or(USAGE)?;
    if Path::new(path).exists() {
        return Err(
            format!("{path} exists: seed writes a new database file (remove it first)").into(),
        );
    }
    let backend = local::file(path)?;
    for recipe in demo::recipes_for(&args.rest)? {
        let tables = demo::write_recipe(&backend, recipe).await?;
        println!("{:<22} {}", recipe.name, tables.join(", "));
    }
    if args.has("problems") {
        let shop = backend.db("shop");
        if shop
            .client()
            .describe_table()
            .table_name("shop")
            .send()
            .await
            .is_err()
        {
            shop.create_table(designs::tables::Shop::ENTITIES).await?;
        }
        demo::write_problems(&shop).await?;
        println!(
            "{:<22} 3 items the live view points out, in shop",
            "problems"
        );
    }
    println!("wrote {path}");
    Ok(())
}

/// A production table's export (DynamoDB JSON data files, gunzipped, or
/// `-` for stdin: `zcat export/*.json.gz | design load ... -`) loaded into
/// a table of the embedded engine's file, created from the design when it
/// is not there yet; bad lines are listed with their numbers, the rest
/// loaded. `live` then shows the table.
async fn load(args: &Args) -> Res {
    let path = args.get("file").ok_or(USAGE)?;
    let table = args.get("table").ok_or(USAGE)?;
    if args.rest.is_empty() {
        return Err(format!("load needs the export's data files (or - for stdin)\n{USAGE}").into());
    }
    let d = design(args.get("design").unwrap_or(table))?;
    let backend = local::file(path)?;
    let db = backend.db(table);
    let exists = db
        .client()
        .describe_table()
        .table_name(table)
        .send()
        .await
        .is_ok();
    if !exists {
        db.create_table(&d.metas()).await?;
    }
    let (mut puts, mut deletes, mut bad) = (0, 0, 0);
    for name in &args.rest {
        let load = if name == "-" {
            ExportReader::new(std::io::stdin().lock())
                .load_into(&db)
                .await?
        } else {
            let file = std::fs::File::open(name).map_err(|e| format!("{name}: {e}"))?;
            ExportReader::new(std::io::BufReader::new(file))
                .load_into(&db)
                .await?
        };
        for e in load.errors.iter().take(20) {
            eprintln!("{name}: {e}");
        }
        if load.errors.len() > 20 {
            eprintln!("{name}: {} more unreadable lines", load.errors.len() - 20);
        }
        println!(
            "{name}: {} written, {} deleted, {} unreadable",
            load.puts,
            load.deletes,
            load.errors.len()
        );
        (puts, deletes, bad) = (
            puts + load.puts,
            deletes + load.deletes,
            bad + load.errors.len(),
        );
    }
    println!("{table} in {path}: {puts} written, {deletes} deleted, {bad} unreadable lines");
    println!("  cargo run --example design -- live --file {path} --table {table} --html {table}-live.html");
    Ok(())
}

fn export(args: &Args) -> Res {
    let (format, name) = match args.rest.as_slice() {
        [f, n] => (f.as_str(), n.as_str()),
        _ => return Err(format!("export takes a format and a table\n{USAGE}").into()),
    };
    let text = infra::export(name, format)?;
    match args.get("out") {
        Some(out) => {
            std::fs::write(out, text)?;
            eprintln!("wrote {out}");
        }
        None => print!("{text}"),
    }
    Ok(())
}

/// Table `table` in the file database (`--file`, kept open by the backend
/// returned) or at the endpoint (`--endpoint`) that `cmd` names.
fn open(args: &Args, cmd: &str, table: &str) -> Res<(Option<local::Backend>, Db)> {
    match (args.get("file"), args.get("endpoint")) {
        (Some(path), None) => {
            if !Path::new(path).exists() {
                return Err(format!("no database file {path} (seed writes one)").into());
            }
            let b = local::file(path)?;
            let db = b.db(table);
            Ok((Some(b), db))
        }
        (None, Some(url)) => Ok((None, Db::new(local::client_for_endpoint(url), table))),
        _ => Err(format!("{cmd} needs --file or --endpoint\n{USAGE}").into()),
    }
}

/// The live table against the code; fails (exit 1) when a difference
/// breaks the code, so a deployment smoke test can run it.
async fn verify(args: &Args) -> Res {
    let table = args.get("table").ok_or(USAGE)?;
    let wanted = args.get("design").unwrap_or(table);
    let spec = infra::find(wanted)
        .or_else(|| {
            wanted
                .rsplit_once('-')
                .and_then(|(base, _)| infra::find(base))
        })
        .ok_or_else(|| format!("no table named {wanted:?} (`design list` lists them)"))?;
    let (_backend, db) = open(args, "verify", table)?;
    let report = db.verify_table_with(&spec.entities, &spec.options).await?;
    print!("{report}");
    if report.is_ok() {
        Ok(())
    } else {
        Err(format!("table {table} does not fit the code of {}", spec.name).into())
    }
}

async fn live(args: &Args) -> Res {
    let table = args.get("table").ok_or(USAGE)?;
    let d = design(args.get("design").unwrap_or(table))?;
    let limit: usize = args.get("limit").unwrap_or("1000").parse()?;
    // Keeps the embedded engine running while the scan reads it.
    let (_backend, db) = open(args, "live", table)?;
    let view = d.live(&db, limit).await?;
    let mut wrote = false;
    if let Some(out) = args.get("html") {
        std::fs::write(out, view.html())?;
        eprintln!("wrote {out}");
        wrote = true;
    }
    if let Some(out) = args.get("markdown") {
        std::fs::write(out, view.markdown())?;
        eprintln!("wrote {out}");
        wrote = true;
    }
    if !wrote {
        println!("{}", view.markdown());
    }
    Ok(())
}

/// Resolves on Ctrl-C (SIGINT) or SIGTERM. Registered before the banner
/// prints, so a signal sent after it always stops the server cleanly.
fn shutdown_signal() -> Res<impl std::future::Future<Output = ()> + Send + 'static> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut int = signal(SignalKind::interrupt())?;
        let mut term = signal(SignalKind::terminate())?;
        Ok(async move {
            tokio::select! {
                _ = int.recv() => {}
                _ = term.recv() => {}
            }
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async move {
            let _ = tokio::signal::ctrl_c().await;
        })
    }
}

/// Serves on a runtime of its own: when it is dropped every connection
/// task, and with it every handle on the database, is gone, so the file is
/// closed when `serve` prints that it stopped.
fn serve(args: &Args) -> Res {
    let port: u16 = args.get("port").unwrap_or("8000").parse()?;
    let ep = match (args.get("file"), args.has("memory")) {
        (Some(path), false) => Endpoint::file(path, port)?,
        (None, true) => Endpoint::memory(port)?,
        _ => return Err(format!("serve needs --file PATH or --memory\n{USAGE}").into()),
    };
    // Programs on this machine only, unless told otherwise: no web page
    // (no Origin), no other Host, and SigV4 when credentials are given.
    let mut access = Access::default();
    for origin in args.all("allow-origin") {
        access = access.allow_origin(origin)?;
    }
    let credentials = match args.get("credentials") {
        Some(kv) => {
            let (key, secret) = kv
                .split_once(':')
                .filter(|(k, s)| !k.is_empty() && !s.is_empty())
                .ok_or_else(|| format!("--credentials takes KEY:SECRET\n{USAGE}"))?;
            access = access.credentials(key, secret);
            Some((key.to_owned(), secret.to_owned()))
        }
        None => None,
    };
    let ep = ep.with_access(access);
    let what = ep.path().map_or("an in-memory database".to_owned(), |p| {
        p.display().to_string()
    });
    let url = ep.url();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    rt.block_on(async {
        let shutdown = shutdown_signal()?;
        let server = tokio::spawn(ep.serve_until(shutdown));
        let origins: Vec<&str> = args.all("allow-origin").collect();
        println!(
            "dynakey: serving {what} as DynamoDB at {url} (programs on this machine only{}{}; Ctrl-C stops)",
            if origins.is_empty() { String::new() } else { format!(", and pages of {}", origins.join(", ")) },
            if credentials.is_some() { "; SigV4 required" } else { "" },
        );
        let client = match &credentials {
            Some((key, secret)) => {
                let creds = aws_sdk_dynamodb::config::Credentials::new(key, secret, None, None, "serve");
                let conf = local::config_for_endpoint(&url).credentials_provider(creds);
                aws_sdk_dynamodb::Client::from_conf(conf.build())
            }
            None => local::client_for_endpoint(&url),
        };
        let names = client.list_tables().send().await?.table_names().to_vec();
        for t in &names {
            let d = client.describe_table().table_name(t).send().await?;
            let n = d.table().and_then(|t| t.item_count()).unwrap_or(0);
            println!("  table {t}: {n} items");
        }
        let (key, secret) = credentials
            .as_ref()
            .map_or(("x", "x"), |(k, s)| (k.as_str(), s.as_str()));
        println!("  aws dynamodb list-tables --endpoint-url {url} --region us-east-1   (AWS_ACCESS_KEY_ID={key} AWS_SECRET_ACCESS_KEY={secret})");
        println!(
            "  boto3.client(\"dynamodb\", endpoint_url=\"{url}\", region_name=\"us-east-1\", \
             aws_access_key_id=\"{key}\", aws_secret_access_key=\"{secret}\")"
        );
        println!(
            "  NoSQL Workbench: Operation builder > Add connection > DynamoDB local, port {}",
            port_of(&url)
        );
        server.await??;
        Res::Ok(())
    })?;
    drop(rt);
    println!("dynakey: stopped; {what} closed");
    Ok(())
}

fn port_of(url: &str) -> &str {
    url.rsplit(':').next().unwrap_or(url)
}

fn main() -> Res {
    let mut argv = std::env::args().skip(1);
    let cmd = argv.next().unwrap_or_else(|| "docs".to_owned());
    let args = Args::parse(argv, &["problems", "memory"])?;
    let async_rt = || {
        tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
    };
    match cmd.as_str() {
        "docs" => docs(&args),
        "list" => {
            list();
            Ok(())
        }
        "markdown" | "html" | "workbench" => {
            let name = args.rest.first().ok_or(USAGE)?;
            let d = design(name)?;
            let text = match cmd.as_str() {
                "markdown" => d.markdown(),
                "html" => d.html(),
                _ => d.workbench(),
            };
            print!("{text}");
            Ok(())
        }
        "seed" => async_rt()?.block_on(seed(&args)),
        "load" => async_rt()?.block_on(load(&args)),
        "live" => async_rt()?.block_on(live(&args)),
        "export" => export(&args),
        "verify" => async_rt()?.block_on(verify(&args)),
        "serve" => serve(&args),
        "help" | "--help" | "-h" => {
            println!("{USAGE}");
            Ok(())
        }
        other => Err(format!("unknown command {other:?}\n{USAGE}").into()),
    }
}
