//! The embedded engine as a DynamoDB endpoint on a port you choose, for
//! the AWS CLI, boto3, NoSQL Workbench or any SDK: a file database (or an
//! in-memory one) served on loopback until a shutdown signal, to programs
//! on this machine and not to web pages (see [`Access`]).

use std::future::Future;
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::path::{Path, PathBuf};

use super::access::Access;
use super::dispatch::EngineSlot;
use super::front;
use crate::error::Error;

/// A database bound to a loopback port, ready to serve.
///
/// [`serve_until`](Self::serve_until) answers DynamoDB's JSON protocol
/// to programs on this machine (the AWS CLI, boto3, SDKs): a request from
/// a web page (one with an `Origin`) or to another `Host` is refused,
/// unless [`with_access`](Self::with_access) lets an origin in, and it
/// can require SigV4 signatures. That address is the only socket it
/// listens on: the engine answers inside the process, so nothing reaches
/// the database around those checks. It runs until its shutdown future
/// resolves; then it stops accepting, lets the
/// requests under way finish and returns. Run it on a runtime of its own
/// and drop that runtime afterwards, and every handle on the database is
/// gone when the call returns: the SQLite file is closed (its write-ahead
/// log folded back in) and can be copied or opened elsewhere.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let path = std::env::temp_dir().join(format!("dynakey-ep-doc-{}.db", std::process::id()));
/// let ep = dynakey_runtime::local::Endpoint::file(&path, 0).unwrap();
/// let url = ep.url();
/// let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
/// let server = tokio::spawn(ep.serve_until(async move { let _ = stopped.await; }));
/// let client = dynakey_runtime::local::client_for_endpoint(&url);
/// assert!(client.list_tables().send().await.unwrap().table_names().is_empty());
/// stop.send(()).unwrap();
/// server.await.unwrap().unwrap();
/// # let _ = std::fs::remove_file(&path);
/// # });
/// ```
#[must_use]
pub struct Endpoint {
    db: dynoxide::Database,
    listener: TcpListener,
    addr: SocketAddr,
    path: Option<PathBuf>,
    access: Access,
}

impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Endpoint")
            .field("addr", &self.addr)
            .field("path", &self.path)
            .field("access", &self.access)
            .finish_non_exhaustive()
    }
}

impl Endpoint {
    /// Opens (or creates) the database file at `path` and binds
    /// `127.0.0.1:port` (`0`: a free port the OS picks). Only loopback,
    /// and no credentials checked unless [`with_access`](Self::with_access)
    /// asks.
    ///
    /// Fails when the file cannot be opened or the port is taken.
    /// See the example on [`Endpoint`].
    pub fn file(path: impl AsRef<Path>, port: u16) -> Result<Self, Error> {
        let path = path.as_ref();
        let text = path.to_str().ok_or_else(|| Error::Backend {
            message: format!("the database path {} is not UTF-8", path.display()),
            source: None,
        })?;
        let db = dynoxide::Database::new(text)
            .map_err(|e| Error::backend(format!("the embedded engine could not open {text}"), e))?;
        let mut ep = Self::bind(db, port)?;
        ep.path = Some(path.to_owned());
        Ok(ep)
    }

    /// An in-memory database (gone when the server stops) on
    /// `127.0.0.1:port`.
    ///
    /// ```
    /// let ep = dynakey_runtime::local::Endpoint::memory(0).unwrap();
    /// assert!(ep.path().is_none());
    /// assert_ne!(ep.addr().port(), 0);
    /// ```
    pub fn memory(port: u16) -> Result<Self, Error> {
        let db = dynoxide::Database::memory().map_err(|e| {
            Error::backend(
                "the embedded engine could not open an in-memory database",
                e,
            )
        })?;
        Self::bind(db, port)
    }

    fn bind(db: dynoxide::Database, port: u16) -> Result<Self, Error> {
        let io =
            |e: std::io::Error| Error::backend(format!("could not listen on 127.0.0.1:{port}"), e);
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port)).map_err(io)?;
        listener.set_nonblocking(true).map_err(io)?;
        let addr = listener.local_addr().map_err(io)?;
        Ok(Endpoint {
            db,
            listener,
            addr,
            path: None,
            access: Access::default(),
        })
    }

    /// Who it answers: by default programs on this machine only (no web
    /// page, no other `Host`, no signature checked).
    ///
    /// ```
    /// use dynakey_runtime::local::{Access, Endpoint};
    /// let ep = Endpoint::memory(0).unwrap()
    ///     .with_access(Access::default().allow_origin("http://localhost:3000").unwrap());
    /// assert_eq!(ep.access().allowed_origins(), ["http://localhost:3000"]);
    /// ```
    pub fn with_access(mut self, access: Access) -> Self {
        self.access = access;
        self
    }

    /// Who it answers (see [`with_access`](Self::with_access)).
    pub fn access(&self) -> &Access {
        &self.access
    }

    /// The address it listens on (see the example on [`memory`](Self::memory)).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Its URL, `http://127.0.0.1:<port>`, for `--endpoint-url` or
    /// `endpoint_url=` (see the example on [`Endpoint`]).
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The database file, `None` in memory (see the example on
    /// [`memory`](Self::memory)).
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Serves until `shutdown` resolves (a Ctrl-C handler, a channel),
    /// then finishes the requests under way and returns. Needs a Tokio
    /// runtime. See the example on [`Endpoint`].
    pub async fn serve_until(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), Error> {
        let listener = tokio::net::TcpListener::from_std(self.listener)
            .map_err(|e| Error::backend("could not hand the listener to the runtime", e))?;
        let engine = EngineSlot::new(self.db);
        let served = front::serve(
            listener,
            self.addr.port(),
            engine.clone(),
            self.access,
            shutdown,
        )
        .await
        .map_err(|e| Error::backend("the endpoint stopped", e));
        // The front has stopped accepting and finished its requests: let go
        // of the engine, the last handle on the database.
        engine.stop();
        served
    }
}
