//! Which endpoint a request could not reach, and why. The SDK reports a
//! failed connection as "dispatch failure", with neither the address (its
//! connector does not keep it) nor the cause in its text. An HTTP client
//! wrapped by [`naming_endpoint`] adds the request's endpoint to its
//! transport errors (kind and connection kept, so the SDK retries as
//! before), and [`Error::from_sdk`](super::Error) turns a dispatch failure
//! into [`Error::Unreachable`](super::Error::Unreachable): the endpoint
//! and the innermost cause of the error's chain.

use std::fmt;

use aws_smithy_runtime_api::client::http::{
    HttpClient, HttpConnector, HttpConnectorFuture, HttpConnectorSettings, SharedHttpClient,
    SharedHttpConnector,
};
use aws_smithy_runtime_api::client::orchestrator::HttpRequest;
use aws_smithy_runtime_api::client::result::ConnectorError;
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;

use super::BoxError;

/// `client` with the endpoint of each request it fails to send named in
/// its error, which then reads [`Error::Unreachable`](crate::Error::Unreachable)
/// `{ endpoint: Some(..), .. }`. The clients of
/// [`local::config_for_endpoint`](crate::local) are wrapped so; wrap a
/// client of your own the same way.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use aws_sdk_dynamodb::config::{BehaviorVersion, Credentials, Region};
/// let http = aws_smithy_http_client::Builder::new().build_http();
/// let conf = aws_sdk_dynamodb::Config::builder()
///     .behavior_version(BehaviorVersion::latest())
///     .region(Region::new("us-east-1"))
///     .credentials_provider(Credentials::new("a", "b", None, None, "test"))
///     .endpoint_url("http://127.0.0.1:9")
///     .retry_config(aws_sdk_dynamodb::config::retry::RetryConfig::disabled())
///     .http_client(dynakey_runtime::error::naming_endpoint(http))
///     .build();
/// let client = aws_sdk_dynamodb::Client::from_conf(conf);
/// let err = dynakey_runtime::table::delete_table(&client, "t").await.unwrap_err();
/// assert!(err.to_string().starts_with("could not reach http://127.0.0.1:9"), "{err}");
/// # });
/// ```
pub fn naming_endpoint(client: impl HttpClient + 'static) -> SharedHttpClient {
    SharedHttpClient::new(Naming(SharedHttpClient::new(client)))
}

#[derive(Debug)]
struct Naming(SharedHttpClient);

impl HttpClient for Naming {
    fn http_connector(
        &self,
        settings: &HttpConnectorSettings,
        components: &RuntimeComponents,
    ) -> SharedHttpConnector {
        SharedHttpConnector::new(NamingConnector(self.0.http_connector(settings, components)))
    }

    fn connector_metadata(
        &self,
    ) -> Option<aws_smithy_runtime_api::client::connector_metadata::ConnectorMetadata> {
        self.0.connector_metadata()
    }
}

#[derive(Debug)]
struct NamingConnector(SharedHttpConnector);

impl HttpConnector for NamingConnector {
    fn call(&self, request: HttpRequest) -> HttpConnectorFuture {
        let endpoint = endpoint_of(request.uri());
        let sent = self.0.call(request);
        HttpConnectorFuture::new(async move { sent.await.map_err(|e| name(endpoint, e)) })
    }
}

/// `scheme://host:port` of a request's URI: where it went, without the path.
fn endpoint_of(uri: &str) -> String {
    let start = uri.find("://").map_or(0, |i| i + 3);
    let end = uri[start..].find('/').map_or(uri.len(), |i| start + i);
    uri[..end].to_owned()
}

/// `e` of the same kind and connection, its source wrapped in [`Endpoint`].
fn name(endpoint: String, e: ConnectorError) -> ConnectorError {
    let (io, timeout, user, other) = (e.is_io(), e.is_timeout(), e.is_user(), e.as_other());
    let connection = e.connection_metadata().cloned();
    let source: BoxError = Box::new(Endpoint {
        endpoint,
        source: e.into_source(),
    });
    let named = if io {
        ConnectorError::io(source)
    } else if timeout {
        ConnectorError::timeout(source)
    } else if user {
        ConnectorError::user(source)
    } else {
        ConnectorError::other(source, other)
    };
    match connection {
        Some(c) => named.with_connection(c),
        None => named,
    }
}

/// The endpoint a transport error happened on, in the error's chain.
#[derive(Debug)]
pub(crate) struct Endpoint {
    pub(crate) endpoint: String,
    source: BoxError,
}

impl fmt::Display for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sending to {}", self.endpoint)
    }
}

impl std::error::Error for Endpoint {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.source)
    }
}

/// What an [`Error::Unreachable`](crate::Error::Unreachable) says of a
/// dispatch failure: the endpoint named in its chain, if any, and its
/// innermost cause (an I/O error by its kind: "connection refused").
pub(crate) fn unreachable(err: &(dyn std::error::Error + 'static)) -> (Option<String>, String) {
    let mut endpoint = None;
    let mut last = err;
    let mut cur = Some(err);
    while let Some(e) = cur {
        if let Some(n) = e.downcast_ref::<Endpoint>() {
            endpoint = Some(n.endpoint.clone());
        }
        last = e;
        cur = e.source();
    }
    let reason = match last.downcast_ref::<std::io::Error>() {
        Some(io) if io.kind() != std::io::ErrorKind::Other => io.kind().to_string(),
        _ => last.to_string(),
    };
    (endpoint, reason)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_endpoint_is_the_uri_without_its_path() {
        assert_eq!(endpoint_of("http://127.0.0.1:9/"), "http://127.0.0.1:9");
        assert_eq!(
            endpoint_of("https://dynamodb.eu-west-1.amazonaws.com/x?y"),
            "https://dynamodb.eu-west-1.amazonaws.com"
        );
        assert_eq!(endpoint_of("http://h:1"), "http://h:1");
    }

    #[test]
    fn the_kind_and_the_cause_are_kept() {
        let io = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
        let e = name("http://h:1".into(), ConnectorError::io(Box::new(io)));
        assert!(e.is_io());
        assert_eq!(
            unreachable(&e),
            (
                Some("http://h:1".to_owned()),
                "connection refused".to_owned()
            )
        );
        let t = name("http://h:1".into(), ConnectorError::timeout("slow".into()));
        assert!(t.is_timeout());
    }
}
