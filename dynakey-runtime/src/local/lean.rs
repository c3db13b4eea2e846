//! The SDK interceptors the embedded engine's client turns off.
//!
//! Every request through `aws_sdk_dynamodb::Client` runs a list of
//! interceptors the SDK adds for a network and a service: headers that
//! identify the SDK (`user-agent`, `x-amz-user-agent` with its business
//! metrics, formatted per request), the invocation id and attempt count
//! (`amz-sdk-invocation-id`, `amz-sdk-request`) that let AWS correlate
//! retries, and the clock skew read from a response's `Date`. On the
//! embedded engine there is no network, no retry and no service clock, and
//! dynoxide reads none of these headers (DynamoDB's request checks do not
//! depend on them either): they cost about a quarter of the SDK's own part
//! of a request (the engine bench's "SDK alone": ~80 µs without this, ~60
//! with) and change nothing. The SDK turns an interceptor off when the request's
//! config holds a `DisableInterceptor` of its type, and the config is open
//! to interceptors in their first hook, so one interceptor of ours puts
//! those there before any of the others runs.
//!
//! (The SDK's metrics and telemetry interceptors are private types, and
//! the others it adds are permanent, the X-Ray trace id's among them: those
//! stay on.)

use aws_runtime::invocation_id::InvocationIdInterceptor;
use aws_runtime::request_info::RequestInfoInterceptor;
use aws_runtime::service_clock_skew::ServiceClockSkewInterceptor;
use aws_runtime::user_agent::UserAgentInterceptor;
use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::interceptors::context::BeforeSerializationInterceptorContextRef;
use aws_smithy_runtime_api::client::interceptors::{disable_interceptor, Intercept};
use aws_smithy_types::config_bag::ConfigBag;

/// Why (kept in the config bag beside each switch).
const CAUSE: &str = "the embedded engine: no network, no retries, no service clock";

/// Turns off the interceptors of the module doc for every request of the
/// client it is added to.
#[derive(Debug, Default)]
pub(crate) struct Lean;

impl Intercept for Lean {
    fn name(&self) -> &'static str {
        "dynakey::local::Lean"
    }

    fn read_before_execution(
        &self,
        _context: &BeforeSerializationInterceptorContextRef<'_>,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        cfg.interceptor_state()
            .store_put(disable_interceptor::<UserAgentInterceptor>(CAUSE))
            .store_put(disable_interceptor::<InvocationIdInterceptor>(CAUSE))
            .store_put(disable_interceptor::<RequestInfoInterceptor>(CAUSE))
            .store_put(disable_interceptor::<ServiceClockSkewInterceptor>(CAUSE));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use aws_smithy_runtime_api::client::http::{
        HttpClient, HttpConnector, HttpConnectorFuture, HttpConnectorSettings, SharedHttpClient,
        SharedHttpConnector,
    };
    use aws_smithy_runtime_api::client::orchestrator::{HttpRequest, HttpResponse};
    use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
    use aws_smithy_types::body::SdkBody;

    /// Keeps the names of the headers of the last request, answers `{}`.
    #[derive(Debug, Clone, Default)]
    struct Headers(Arc<Mutex<Vec<String>>>);

    impl HttpConnector for Headers {
        fn call(&self, request: HttpRequest) -> HttpConnectorFuture {
            *self.0.lock().unwrap() = request
                .headers()
                .iter()
                .map(|(k, _)| k.to_owned())
                .collect();
            let mut r = HttpResponse::new(200.try_into().unwrap(), SdkBody::from("{}"));
            r.headers_mut()
                .insert("content-type", "application/x-amz-json-1.0");
            HttpConnectorFuture::ready(Ok(r))
        }
    }

    impl HttpClient for Headers {
        fn http_connector(
            &self,
            _: &HttpConnectorSettings,
            _: &RuntimeComponents,
        ) -> SharedHttpConnector {
            SharedHttpConnector::new(self.clone())
        }
    }

    #[test]
    fn the_embedded_client_sends_the_auth_material_and_not_the_sdks_own_headers() {
        let seen = Headers::default();
        let conf = super::super::embedded_config(
            "http://127.0.0.1:9",
            SharedHttpClient::new(seen.clone()),
        )
        .build();
        let client = aws_sdk_dynamodb::Client::from_conf(conf);
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(client.list_tables().send()).unwrap();
        let names = seen.0.lock().unwrap().clone();
        for kept in [
            "authorization",
            "x-amz-date",
            "x-amz-target",
            "content-type",
        ] {
            assert!(
                names.iter().any(|n| n == kept),
                "{kept} missing from {names:?}"
            );
        }
        for gone in [
            "user-agent",
            "x-amz-user-agent",
            "amz-sdk-invocation-id",
            "amz-sdk-request",
        ] {
            assert!(
                !names.iter().any(|n| n == gone),
                "{gone} still sent: {names:?}"
            );
        }
        // A client of the same endpoint without the embedded settings sends them.
        let plain = super::super::config_for_endpoint("http://127.0.0.1:9")
            .http_client(seen.clone())
            .build();
        rt.block_on(
            aws_sdk_dynamodb::Client::from_conf(plain)
                .list_tables()
                .send(),
        )
        .unwrap();
        let names = seen.0.lock().unwrap().clone();
        assert!(
            names.iter().any(|n| n == "amz-sdk-invocation-id"),
            "{names:?}"
        );
    }
}
