//! The HTTP transport: POST the rendered request with a bearer token. 402 is out of
//! credit, 429 over quota, 401/403 a rejected token (`no-engine`, naming the token's
//! variable); any other non-2xx, a connection error or the timeout is unreachable. The
//! token goes in the authorization header and nowhere else, and is scrubbed from any text
//! the engine sends back.

use async_trait::async_trait;
use chant_lexicon::behaviour::{
    BehaviourRefusal, BehaviourTransport, Resolved, ResolvedToken, WireCondition,
    behaviour_wire_refusal,
};
use std::time::Duration;

pub struct HttpTransport {
    lexicon: String,
    endpoint: Resolved,
    token: ResolvedToken,
    timeout: Duration,
    client: reqwest::Client,
}

impl HttpTransport {
    pub fn new(
        lexicon: &str,
        endpoint: Resolved,
        token: ResolvedToken,
        timeout: Duration,
    ) -> Result<Self, BehaviourRefusal> {
        let client = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|error| {
                behaviour_wire_refusal(
                    lexicon,
                    &endpoint,
                    Some(&token.variable),
                    &WireCondition::Connect(describe(error)),
                    &[token.token.expose()],
                )
            })?;
        Ok(HttpTransport {
            lexicon: lexicon.to_owned(),
            endpoint,
            token,
            timeout,
            client,
        })
    }

    fn refuse(&self, condition: WireCondition) -> BehaviourRefusal {
        behaviour_wire_refusal(
            &self.lexicon,
            &self.endpoint,
            Some(&self.token.variable),
            &condition,
            &[self.token.token.expose()],
        )
    }
}

#[async_trait]
impl BehaviourTransport for HttpTransport {
    async fn send(&self, body: &str) -> Result<String, BehaviourRefusal> {
        let sent = self
            .client
            .post(&self.endpoint.value)
            .bearer_auth(self.token.token.expose())
            .header("content-type", "application/json")
            .header("accept", "application/json")
            .body(body.to_owned())
            .send()
            .await;
        let response = match sent {
            Ok(response) => response,
            Err(error) if error.is_timeout() => {
                return Err(self.refuse(WireCondition::TimedOut(self.timeout)));
            }
            Err(error) => {
                return Err(self.refuse(WireCondition::Connect(describe(error))));
            }
        };
        let status = response.status();
        let text = match response.text().await {
            Ok(text) => text,
            Err(error) if error.is_timeout() => {
                return Err(self.refuse(WireCondition::TimedOut(self.timeout)));
            }
            Err(error) => return Err(self.refuse(WireCondition::Connect(describe(error)))),
        };
        if status.is_success() {
            Ok(text)
        } else {
            Err(self.refuse(WireCondition::Status {
                code: status.as_u16(),
                body: text,
            }))
        }
    }

    fn endpoint(&self) -> &Resolved {
        &self.endpoint
    }
}

/// The error and its causes, without the URL (which may carry a query secret).
fn describe(error: reqwest::Error) -> String {
    let error = error.without_url();
    let mut text = error.to_string();
    let mut source = std::error::Error::source(&error);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
