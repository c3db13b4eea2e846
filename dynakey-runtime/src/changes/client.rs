//! A Streams API client for a table's client: the same region,
//! credentials, HTTP client and retry settings, at the endpoint the
//! table's requests actually go to.
//!
//! Why the endpoint is observed rather than configured: the DynamoDB
//! client does not expose an endpoint URL it was given, and emulators
//! (the embedded engine, moto, DynamoDB Local) serve the Streams API on the
//! table's own endpoint, whereas AWS serves it at
//! `streams.dynamodb.<region>.amazonaws.com`. So the feed's DescribeTable
//! carries an interceptor that notes the URL it is sent to; an AWS host
//! leaves the Streams client on its default (regional) endpoint.

use std::sync::{Arc, Mutex};

use aws_credential_types::provider::{error::CredentialsError, future, ProvideCredentials};
use aws_credential_types::Credentials;
use aws_sdk_dynamodb::config::BehaviorVersion;
use aws_sdk_dynamodbstreams::operation::get_records::GetRecordsOutput;
use aws_sdk_dynamodbstreams::types::Identity;
use aws_sdk_dynamodbstreams::Client as StreamsClient;
use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::auth::AuthSchemeId;
use aws_smithy_runtime_api::client::identity::{ResolveIdentity, SharedIdentityResolver};
use aws_smithy_runtime_api::client::interceptors::context::{
    BeforeTransmitInterceptorContextRef, FinalizerInterceptorContextMut,
};
use aws_smithy_runtime_api::client::interceptors::Intercept;
use aws_smithy_runtime_api::client::runtime_components::{GetIdentityResolver, RuntimeComponents};
use aws_smithy_types::config_bag::ConfigBag;

/// SigV4, the scheme DynamoDB and its Streams API sign with.
const SIGV4: AuthSchemeId = AuthSchemeId::new("sigv4");

/// What the table's request showed: where it went, and how the client
/// resolves credentials.
#[derive(Debug, Default)]
struct Seen {
    endpoint: Option<String>,
    credentials: Option<(SharedIdentityResolver, RuntimeComponents)>,
}

/// Notes the endpoint and the credentials resolver of the request it sees.
#[derive(Debug, Clone, Default)]
pub(crate) struct SeeEndpoint(Arc<Mutex<Seen>>);

impl SeeEndpoint {
    /// The endpoint seen, e.g. `http://127.0.0.1:8000`.
    fn endpoint(&self) -> Option<String> {
        self.0.lock().ok().and_then(|g| g.endpoint.clone())
    }

    fn credentials(&self) -> Option<TableCredentials> {
        let g = self.0.lock().ok()?;
        let (resolver, components) = g.credentials.clone()?;
        Some(TableCredentials {
            resolver,
            components,
        })
    }
}

/// The table client's credentials, for the Streams client: the DynamoDB
/// client's config does not hand out its credentials provider (its getter
/// is deprecated and always `None`), but its requests carry the resolver.
#[derive(Debug)]
struct TableCredentials {
    resolver: SharedIdentityResolver,
    components: RuntimeComponents,
}

impl ProvideCredentials for TableCredentials {
    fn provide_credentials<'a>(&'a self) -> future::ProvideCredentials<'a>
    where
        Self: 'a,
    {
        future::ProvideCredentials::new(async move {
            let identity = self
                .resolver
                .resolve_identity(&self.components, &ConfigBag::base())
                .await
                .map_err(CredentialsError::provider_error)?;
            identity.data::<Credentials>().cloned().ok_or_else(|| {
                CredentialsError::not_loaded("the table client's identity is not AWS credentials")
            })
        })
    }
}

impl Intercept for SeeEndpoint {
    fn name(&self) -> &'static str {
        "dynakey-see-endpoint"
    }

    fn read_before_transmit(
        &self,
        context: &BeforeTransmitInterceptorContextRef<'_>,
        components: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        if let Ok(mut g) = self.0.lock() {
            g.endpoint = base_url(context.request().uri());
            g.credentials = components
                .identity_resolver(SIGV4)
                .map(|r| (r, components.clone()));
        }
        Ok(())
    }
}

/// Reads the `userIdentity` of `GetRecords` records written in Lambda's
/// casing (`type`, `principalId`) where the Streams API has `Type` and
/// `PrincipalId`. dynoxide 3.2 answers in Lambda's casing, which the SDK
/// does not read, so without this a TTL expiry on the embedded engine would
/// look like a plain removal. Records that already have an identity are
/// left alone.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct LambdaCasedIdentity;

impl Intercept for LambdaCasedIdentity {
    fn name(&self) -> &'static str {
        "dynakey-lambda-cased-identity"
    }

    fn modify_before_attempt_completion(
        &self,
        context: &mut FinalizerInterceptorContextMut<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let Some(body) = context.response().and_then(|r| r.body().bytes()) else {
            return Ok(());
        };
        // Most responses have no such identity: skip them without parsing.
        if !body.windows(13).any(|w| w == b"\"principalId\"") {
            return Ok(());
        }
        let Ok(v) = serde_json::from_slice::<serde_json::Value>(body) else {
            return Ok(());
        };
        let identities: Vec<Option<Identity>> = v["Records"]
            .as_array()
            .map(|records| {
                records
                    .iter()
                    .map(|r| {
                        let id = r.get("userIdentity")?;
                        Some(
                            Identity::builder()
                                .set_type(id["type"].as_str().map(str::to_owned))
                                .set_principal_id(id["principalId"].as_str().map(str::to_owned))
                                .build(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        let Some(Ok(output)) = context.output_or_error_mut() else {
            return Ok(());
        };
        let Some(out) = output.downcast_mut::<GetRecordsOutput>() else {
            return Ok(());
        };
        for (record, identity) in out.records.iter_mut().flatten().zip(identities) {
            if record
                .user_identity
                .as_ref()
                .is_none_or(|i| i.r#type().is_none())
            {
                record.user_identity = identity.or(record.user_identity.take());
            }
        }
        Ok(())
    }
}

/// `scheme://authority` of a request URI (the endpoint, without the path).
fn base_url(uri: &str) -> Option<String> {
    let (scheme, rest) = uri.split_once("://")?;
    let authority = rest.split(['/', '?']).next().filter(|a| !a.is_empty())?;
    Some(format!("{scheme}://{authority}"))
}

/// Whether `endpoint` is one of AWS's own hosts (where the Streams API has
/// an endpoint of its own).
fn is_aws(endpoint: &str) -> bool {
    let host = endpoint
        .split("://")
        .nth(1)
        .unwrap_or(endpoint)
        .split([':', '/'])
        .next()
        .unwrap_or_default();
    [".amazonaws.com", ".amazonaws.com.cn", ".api.aws"]
        .iter()
        .any(|s| host.ends_with(s))
}

/// A Streams client sharing `db_client`'s settings (and what `seen` saw of
/// its requests), at the table's endpoint unless that is an AWS host.
pub(crate) fn streams_client(
    db_client: &aws_sdk_dynamodb::Client,
    seen: &SeeEndpoint,
) -> StreamsClient {
    let c = db_client.config();
    let mut b =
        aws_sdk_dynamodbstreams::Config::builder().behavior_version(BehaviorVersion::latest());
    if let Some(r) = c.region() {
        b = b.region(r.clone());
    }
    if let Some(p) = seen.credentials() {
        b = b.credentials_provider(p);
    }
    if let Some(cache) = c.identity_cache() {
        b = b.identity_cache(cache);
    }
    if let Some(h) = c.http_client() {
        b = b.http_client(h);
    }
    if let Some(s) = c.sleep_impl() {
        b = b.sleep_impl(s);
    }
    if let Some(t) = c.time_source() {
        b = b.time_source(t);
    }
    if let Some(r) = c.retry_config() {
        b = b.retry_config(r.clone());
    }
    if let Some(t) = c.timeout_config() {
        b = b.timeout_config(t.clone());
    }
    if let Some(e) = seen.endpoint().filter(|e| !is_aws(e)) {
        b = b.endpoint_url(e);
    }
    b = b.interceptor(LambdaCasedIdentity);
    StreamsClient::from_conf(b.build())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_endpoint_is_the_uri_without_its_path() {
        assert_eq!(
            base_url("http://127.0.0.1:8000/").as_deref(),
            Some("http://127.0.0.1:8000")
        );
        assert_eq!(
            base_url("https://h.example?x=1").as_deref(),
            Some("https://h.example")
        );
        assert_eq!(base_url("/relative"), None);
    }

    #[test]
    fn aws_hosts_are_told_from_emulators() {
        assert!(is_aws("https://dynamodb.us-east-1.amazonaws.com"));
        assert!(is_aws("https://123456789012.ddb.eu-west-1.amazonaws.com"));
        assert!(!is_aws("http://127.0.0.1:8000"));
        assert!(!is_aws("http://localhost:4566"));
        assert!(!is_aws("http://amazonaws.com.evil:80"));
    }
}
