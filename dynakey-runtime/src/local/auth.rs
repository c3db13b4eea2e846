//! The embedded engine's request authentication: SigV4's headers without
//! SigV4's hashing.
//!
//! dynoxide checks what DynamoDB checks of a request's auth material
//! before it runs an operation (an `Authorization` header of the `AWS4-`
//! scheme naming a credential, its signed headers and a signature, and an
//! `X-Amz-Date` header; `MissingAuthenticationTokenException` or
//! `IncompleteSignatureException` otherwise), but never the signature
//! itself: it holds no secret key to check it against. Computing one is a
//! SHA-256 of the body, a canonical request and four HMACs per request for
//! nothing, so the embedded client writes the same two headers, with the
//! caller's access key, the request's time and region, and a signature of
//! zeros. Every check dynoxide makes still runs on them.

use std::time::SystemTime;

use aws_credential_types::Credentials;
use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::auth::{
    AuthScheme, AuthSchemeEndpointConfig, AuthSchemeId, Sign,
};
use aws_smithy_runtime_api::client::identity::{Identity, SharedIdentityResolver};
use aws_smithy_runtime_api::client::orchestrator::HttpRequest;
use aws_smithy_runtime_api::client::runtime_components::{GetIdentityResolver, RuntimeComponents};
use aws_smithy_types::config_bag::ConfigBag;

/// SigV4's scheme id: this scheme takes its place (the operations of
/// DynamoDB name only it).
const SIGV4: AuthSchemeId = AuthSchemeId::new("sigv4");

/// The signed headers the header names (what the SDK's signer would sign).
const SIGNED_HEADERS: &str = "content-type;host;x-amz-date;x-amz-target";

/// The auth scheme of the embedded engine's client (see the module doc).
#[derive(Debug, Default)]
pub(crate) struct LocalAuth {
    signer: LocalSigner,
}

impl AuthScheme for LocalAuth {
    fn scheme_id(&self) -> AuthSchemeId {
        SIGV4
    }

    fn identity_resolver(
        &self,
        identity_resolvers: &dyn GetIdentityResolver,
    ) -> Option<SharedIdentityResolver> {
        identity_resolvers.identity_resolver(SIGV4)
    }

    fn signer(&self) -> &dyn Sign {
        &self.signer
    }
}

#[derive(Debug, Default)]
struct LocalSigner;

impl Sign for LocalSigner {
    fn sign_http_request(
        &self,
        request: &mut HttpRequest,
        identity: &Identity,
        _endpoint_config: AuthSchemeEndpointConfig<'_>,
        components: &RuntimeComponents,
        _config: &ConfigBag,
    ) -> Result<(), BoxError> {
        let creds = identity
            .data::<Credentials>()
            .ok_or("the embedded engine's client needs AWS credentials (any will do)")?;
        let now = components
            .time_source()
            .map_or_else(SystemTime::now, |t| t.now());
        let stamp = amz_date(now);
        let authorization = authorization(creds.access_key_id(), &stamp[..8]);
        let headers = request.headers_mut();
        headers.insert("x-amz-date", stamp);
        headers.insert("authorization", authorization);
        if let Some(token) = creds.session_token() {
            headers.insert("x-amz-security-token", token.to_owned());
        }
        Ok(())
    }
}

/// The `Authorization` header of a request on `day` (`YYYYMMDD`).
fn authorization(access_key: &str, day: &str) -> String {
    format!(
        "AWS4-HMAC-SHA256 Credential={access_key}/{day}/us-east-1/dynamodb/aws4_request, \
         SignedHeaders={SIGNED_HEADERS}, Signature={ZEROS}"
    )
}

/// The signature written: nothing checks it.
const ZEROS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// `YYYYMMDDTHHMMSSZ` in UTC, SigV4's `X-Amz-Date`.
fn amz_date(t: SystemTime) -> String {
    let t = time::OffsetDateTime::from(t);
    format!(
        "{:04}{:02}{:02}T{:02}{:02}{:02}Z",
        t.year(),
        u8::from(t.month()),
        t.day(),
        t.hour(),
        t.minute(),
        t.second()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn amz_date_is_sigv4s_basic_format_in_utc() {
        let t = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        assert_eq!(amz_date(t), "20231114T221320Z");
        assert_eq!(amz_date(SystemTime::UNIX_EPOCH), "19700101T000000Z");
    }

    #[test]
    fn the_header_passes_dynoxides_auth_check() {
        let header = authorization("dynakey", "20231114");
        let material = dynoxide::auth_material::AuthMaterial {
            authorization: Some(&header),
            query: "",
            has_date_header: true,
        };
        assert_eq!(dynoxide::auth_material::validate(material), None);
        // Without the date header it is refused, as on DynamoDB.
        let material = dynoxide::auth_material::AuthMaterial {
            has_date_header: false,
            ..material
        };
        let refusal = dynoxide::auth_material::validate(material).unwrap();
        assert!(
            refusal.contains("IncompleteSignatureException"),
            "{refusal}"
        );
    }
}
