//! Backends for examples and tests: the embedded engine (dynoxide, SQLite in
//! memory or in a file) started inside the process by one call, or any
//! DynamoDB-compatible endpoint named by `DYNAKEY_ENDPOINT`.
//!
//! The embedded engine's client hands its requests to the engine inside
//! the process, without a socket, wherever that answers exactly what
//! dynoxide's HTTP handler would; everything else (a request the engine
//! refuses, batch writes, transactions) goes to that handler, served on
//! loopback on a port the OS picks (`127.0.0.1:0`) on its own thread, so
//! every request gets every check dynoxide makes and every error its
//! handler's wording (see `in_process.rs` for the split, and the guide's
//! Performance page, `dynakey::_guide::_14_performance`, for what each costs). Parallel tests never share a
//! port or a database. [`Backend::endpoint`] is that server, for clients
//! of your own.
//!
//! Behind the `local` feature: a production build that does not ask for
//! it compiles no SQLite. Turn it on for tests with
//! `[dev-dependencies] dynakey = { version = "0.1", features = ["local"] }`.
//!
//! ```
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let backend = dynakey_runtime::local::memory().unwrap();
//! let tables = backend.client().list_tables().send().await.unwrap();
//! assert!(tables.table_names().is_empty());
//! # });
//! ```

use std::path::Path;
use std::thread;

use std::sync::Arc;

use aws_sdk_dynamodb::config::retry::RetryConfig;
use aws_sdk_dynamodb::config::{
    BehaviorVersion, Credentials, IdentityCache, Region, StalledStreamProtectionConfig,
};
use aws_sdk_dynamodb::Client;
use aws_smithy_runtime_api::client::http::SharedHttpClient;

use crate::db::Db;
use crate::error::Error;

mod access;
mod auth;
mod dispatch;
mod endpoint;
mod front;
mod in_process;
mod lean;
mod protocol;
pub use access::Access;
use dispatch::EngineSlot;
pub use endpoint::Endpoint;
use in_process::InProcess;

/// The environment variable naming a DynamoDB-compatible endpoint.
pub const ENDPOINT_VAR: &str = "DYNAKEY_ENDPOINT";

/// A ready client on a local backend: the embedded engine, or the
/// endpoint `DYNAKEY_ENDPOINT` names. Dropping it stops the embedded
/// engine (an endpoint is left alone).
///
/// ```
/// let backend = dynakey_runtime::local::memory().unwrap();
/// assert!(backend.endpoint().starts_with("http://127.0.0.1:"));
/// ```
#[derive(Debug)]
pub struct Backend {
    client: Client,
    endpoint: String,
    /// The HTTP client of `client`: the in-process transport on the
    /// embedded engine, a plain HTTP client on an endpoint.
    http: SharedHttpClient,
    server: Option<Server>,
}

struct Server {
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    /// The engine the server serves, for what has no API request (TTL).
    engine: dynoxide::Database,
    /// The engine as the in-process transport reaches it.
    slot: Arc<EngineSlot>,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server").finish_non_exhaustive()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.slot.stop();
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

impl Backend {
    /// The client.
    ///
    /// ```
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// assert_eq!(backend.client().config().region().unwrap().as_ref(), "us-east-1");
    /// ```
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The endpoint URL, e.g. `http://127.0.0.1:41234` (see the example
    /// on [`Backend`]).
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// Whether this is the embedded engine (not an external endpoint; see
    /// the example on [`memory`]).
    pub fn is_embedded(&self) -> bool {
        self.server.is_some()
    }

    /// A config builder for the same backend, to build a client with a
    /// wrapped HTTP client or another retry policy. On the embedded engine
    /// it holds [`http_client`](Self::http_client) (the in-process
    /// transport), the embedded client's settings and the SDK's standard
    /// retries; its endpoint URL is [`endpoint`](Self::endpoint), so a
    /// plain HTTP client put in its place reaches the same database over
    /// loopback.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let conf = backend.config_builder().build();
    /// let client = aws_sdk_dynamodb::Client::from_conf(conf);
    /// assert!(client.list_tables().send().await.unwrap().table_names().is_empty());
    /// # });
    /// ```
    pub fn config_builder(&self) -> aws_sdk_dynamodb::config::Builder {
        if self.server.is_some() {
            embedded_config(&self.endpoint, self.http.clone())
        } else {
            config_for_endpoint(&self.endpoint)
        }
    }

    /// The HTTP client of [`client`](Self::client): on the embedded engine
    /// the in-process transport (wrap it to add faults or to record
    /// requests, and requests still skip the socket), on an endpoint a
    /// plain HTTP client.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use dynakey_runtime::fault::{FaultConfig, FaultInjector};
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let faults = FaultInjector::new(FaultConfig::default());
    /// let conf = backend.config_builder().http_client(faults.wrap(backend.http_client())).build();
    /// let client = aws_sdk_dynamodb::Client::from_conf(conf);
    /// client.list_tables().send().await.unwrap();
    /// assert_eq!(faults.stats().requests, 1);
    /// # });
    /// ```
    pub fn http_client(&self) -> SharedHttpClient {
        self.http.clone()
    }

    /// Deletes every item whose TTL has passed (by the engine's clock, see
    /// [`memory_with_clock`]) now, as DynamoDB's TTL service does in its
    /// own time; each deletion is a stream record of TTL's identity.
    /// Returns how many it deleted. Only the embedded engine has it: on an
    /// endpoint it is an [`Error::Backend`].
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// assert_eq!(backend.sweep_ttl().await.unwrap(), 0);
    /// # });
    /// ```
    pub async fn sweep_ttl(&self) -> Result<usize, Error> {
        let Some(server) = &self.server else {
            return Err(Error::Backend {
                message: format!(
                    "{} is not the embedded engine: no TTL sweep on demand",
                    self.endpoint
                ),
                source: None,
            });
        };
        let engine = server.engine.clone();
        // The sweep blocks on the engine's lock a page at a time.
        tokio::task::spawn_blocking(move || engine.sweep_ttl())
            .await
            .map_err(|e| Error::backend("the TTL sweep stopped", e))?
            .map_err(|e| Error::backend("the TTL sweep failed", e))
    }

    /// A DynamoDB Streams client for the same endpoint (the embedded engine
    /// and moto serve the Streams API on the table's endpoint), with the
    /// settings of [`client_for_endpoint`]. Feature `streams`.
    ///
    /// ```
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let streams = backend.streams_client();
    /// assert_eq!(streams.config().region().unwrap().as_ref(), "us-east-1");
    /// ```
    #[cfg(feature = "streams")]
    #[cfg_attr(docsrs, doc(cfg(feature = "streams")))]
    pub fn streams_client(&self) -> aws_sdk_dynamodbstreams::Client {
        let conf = aws_sdk_dynamodbstreams::Config::builder()
            .behavior_version(aws_sdk_dynamodbstreams::config::BehaviorVersion::latest())
            .region(Region::new("us-east-1"))
            .endpoint_url(&self.endpoint)
            .credentials_provider(Credentials::new(
                "dynakey", "dynakey", None, None, "dynakey",
            ))
            .http_client(aws_smithy_http_client::Builder::new().build_http())
            // dynoxide writes `userIdentity` in Lambda's casing (a TTL
            // expiry's mark), which the SDK would not read.
            .interceptor(crate::changes::client::LambdaCasedIdentity)
            .build();
        aws_sdk_dynamodbstreams::Client::from_conf(conf)
    }

    /// A table handle on this backend.
    ///
    /// ```
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// assert_eq!(backend.db("shop").table_name(), "shop");
    /// ```
    pub fn db(&self, table: impl Into<String>) -> Db {
        Db::new(self.client.clone(), table)
    }
}

/// The embedded engine on an in-memory database.
///
/// ```
/// let backend = dynakey_runtime::local::memory().unwrap();
/// assert!(backend.is_embedded());
/// ```
pub fn memory() -> Result<Backend, Error> {
    let db = dynoxide::Database::memory().map_err(|e| {
        Error::backend(
            "the embedded engine could not open an in-memory database",
            e,
        )
    })?;
    serve(db)
}

/// A clock the embedded engine reads for TTL and stream timestamps, set by
/// hand (dynoxide's): see [`memory_with_clock`].
pub use dynoxide::storage_backend::ManualClock;

/// The embedded engine on an in-memory database whose clock is `clock`:
/// TTL expiry ([`Backend::sweep_ttl`]) and stream record times follow it,
/// so a test can move time forward instead of waiting.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use dynakey_runtime::local::{memory_with_clock, ManualClock};
/// let clock = ManualClock::new(1_700_000_000);
/// let backend = memory_with_clock(&clock).unwrap();
/// clock.tick(std::time::Duration::from_secs(3600));
/// assert_eq!(backend.sweep_ttl().await.unwrap(), 0);
/// # });
/// ```
pub fn memory_with_clock(clock: &ManualClock) -> Result<Backend, Error> {
    let db = dynoxide::Database::memory_with_clock(clock.arc()).map_err(|e| {
        Error::backend(
            "the embedded engine could not open an in-memory database",
            e,
        )
    })?;
    serve(db)
}

/// The embedded engine on a database file (created when missing).
///
/// ```
/// let path = std::env::temp_dir().join(format!("dynakey-doc-{}.db", std::process::id()));
/// let backend = dynakey_runtime::local::file(&path).unwrap();
/// assert!(backend.is_embedded());
/// drop(backend);
/// let _ = std::fs::remove_file(&path);
/// ```
pub fn file(path: impl AsRef<Path>) -> Result<Backend, Error> {
    let path = path.as_ref();
    let text = path.to_str().ok_or_else(|| Error::Backend {
        message: format!("the database path {} is not UTF-8", path.display()),
        source: None,
    })?;
    let db = dynoxide::Database::new(text)
        .map_err(|e| Error::backend(format!("the embedded engine could not open {text}"), e))?;
    serve(db)
}

/// A client for `url`, e.g. a moto or dynoxide server.
///
/// ```
/// let client = dynakey_runtime::local::client_for_endpoint("http://127.0.0.1:8000");
/// assert_eq!(client.config().region().unwrap().as_ref(), "us-east-1");
/// ```
pub fn client_for_endpoint(url: &str) -> Client {
    Client::from_conf(config_for_endpoint(url).build())
}

/// The config of [`client_for_endpoint`]: region `us-east-1`, dummy static
/// credentials, and a plain-HTTP client (no TLS).
///
/// ```
/// let conf = dynakey_runtime::local::config_for_endpoint("http://127.0.0.1:8000").build();
/// assert!(conf.http_client().is_some());
/// ```
pub fn config_for_endpoint(url: &str) -> aws_sdk_dynamodb::config::Builder {
    aws_sdk_dynamodb::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new("us-east-1"))
        .endpoint_url(url)
        .credentials_provider(Credentials::new(
            "dynakey", "dynakey", None, None, "dynakey",
        ))
        .http_client(crate::error::naming_endpoint(
            aws_smithy_http_client::Builder::new().build_http(),
        ))
}

/// The embedded engine's client settings: the in-process transport `http`
/// (falling back to the server at `url`), SigV4's headers written without
/// hashing (dynoxide checks the auth material, never the signature: see
/// `auth.rs`), the static credentials used as they are (no identity
/// cache), and no stalled-stream watcher (every body is in memory).
fn embedded_config(url: &str, http: SharedHttpClient) -> aws_sdk_dynamodb::config::Builder {
    config_for_endpoint(url)
        .http_client(http)
        .push_auth_scheme(auth::LocalAuth::default())
        .identity_cache(IdentityCache::no_cache())
        .stalled_stream_protection(StalledStreamProtectionConfig::disabled())
        .interceptor(lean::Lean)
}

/// The endpoint named by `DYNAKEY_ENDPOINT` when set, else [`memory`].
///
/// ```
/// let backend = dynakey_runtime::local::from_env().unwrap();
/// assert_eq!(backend.is_embedded(), std::env::var("DYNAKEY_ENDPOINT").is_err());
/// ```
pub fn from_env() -> Result<Backend, Error> {
    match std::env::var(ENDPOINT_VAR) {
        Ok(url) if !url.trim().is_empty() => {
            let conf = config_for_endpoint(url.trim()).build();
            Ok(Backend {
                http: conf
                    .http_client()
                    .expect("config_for_endpoint sets an HTTP client"),
                client: Client::from_conf(conf),
                endpoint: url.trim().to_owned(),
                server: None,
            })
        }
        _ => memory(),
    }
}

fn serve(db: dynoxide::Database) -> Result<Backend, Error> {
    let engine = db.clone();
    let io =
        |e: std::io::Error| Error::backend("the embedded engine could not listen on loopback", e);
    let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(io)?;
    listener.set_nonblocking(true).map_err(io)?;
    let port = listener.local_addr().map_err(io)?.port();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let (ready_tx, ready_rx) = std::sync::mpsc::channel::<Result<(), std::io::Error>>();
    thread::Builder::new()
        .name(format!("dynakey-local-{port}"))
        .spawn(move || {
            let rt = match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(rt) => rt,
                Err(e) => {
                    let _ = ready_tx.send(Err(e));
                    return;
                }
            };
            rt.block_on(async move {
                let listener = match tokio::net::TcpListener::from_std(listener) {
                    Ok(l) => l,
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                let _ = ready_tx.send(Ok(()));
                let shutdown = async move {
                    let _ = rx.await;
                };
                let _ = dynoxide::server::serve_with_shutdown(listener, db, shutdown).await;
            });
        })
        .map_err(io)?;
    ready_rx
        .recv()
        .map_err(|e| Error::backend("the embedded engine's thread stopped before serving", e))?
        .map_err(io)?;
    let endpoint = format!("http://127.0.0.1:{port}");
    let slot = EngineSlot::new(engine.clone());
    let http = SharedHttpClient::new(InProcess::new(
        slot.clone(),
        aws_smithy_http_client::Builder::new().build_http(),
    ));
    // Nothing on the embedded engine is worth retrying: it never throttles
    // and no network sits in between.
    let conf = embedded_config(&endpoint, http.clone())
        .retry_config(RetryConfig::disabled())
        .build();
    Ok(Backend {
        client: Client::from_conf(conf),
        endpoint,
        http,
        server: Some(Server {
            shutdown: Some(tx),
            engine,
            slot,
        }),
    })
}
