//! `chant-example-engine`: a behaviour engine to point chant at, modeled from the small
//! price list in `prices.rs`. Every figure is `modeled` unless an invoice line reconciles a
//! live entity's cost (`validated`).
//!
//! As a command (chant's command transport): the request on stdin, the answer on stdout.
//!
//! ```text
//! CHANT_BEHAVIOUR_ENGINE="chant-example-engine" chant lifecycle predict dev --traffic "100 rps"
//! ```
//!
//! As a server (chant's HTTP transport): `chant-example-engine serve --listen 127.0.0.1:8787
//! --token s3cret` prints `listening on http://…` and answers `POST` requests carrying
//! `Authorization: Bearer s3cret`.
//!
//! Options: `--invoice FILE` (`{"currency": "USD", "rates": {"<entity>": 0.09}}`),
//! `--delay-ms N` (answer late), and for `serve` also `--credit N` (answers the account
//! can pay for, then 402) and `--quota N` (requests allowed, then 429).
//! The wire format is in README.md beside this file.

mod http;
mod model;
mod prices;
mod wire;

use model::{BadRequest, Invoice};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

#[derive(Default)]
struct Options {
    serve: bool,
    listen: Option<String>,
    token: Option<String>,
    invoice: Option<Invoice>,
    delay: Duration,
    credit: Option<u64>,
    quota: Option<u64>,
}

fn parse_args() -> Result<Options, String> {
    let mut options = Options::default();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "serve" => options.serve = true,
            "--listen" => options.listen = Some(value("--listen")?),
            "--token" => options.token = Some(value("--token")?),
            "--invoice" => {
                let path = value("--invoice")?;
                let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
                options.invoice =
                    Some(serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?);
            }
            "--delay-ms" => {
                let ms = value("--delay-ms")?
                    .parse()
                    .map_err(|_| "--delay-ms takes milliseconds")?;
                options.delay = Duration::from_millis(ms);
            }
            "--credit" => {
                options.credit = Some(
                    value("--credit")?
                        .parse()
                        .map_err(|_| "--credit takes a count")?,
                )
            }
            "--quota" => {
                options.quota = Some(
                    value("--quota")?
                        .parse()
                        .map_err(|_| "--quota takes a count")?,
                )
            }
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(options)
}

fn predict(body: &[u8], invoice: Option<&Invoice>) -> Result<String, BadRequest> {
    let request: wire::Request = serde_json::from_slice(body)
        .map_err(|e| BadRequest(format!("not a {} request: {e}", wire::WIRE)))?;
    let answer = model::answer(&request, invoice)?;
    serde_json::to_string(&answer).map_err(|e| BadRequest(e.to_string()))
}

fn error_body(message: &str) -> String {
    serde_json::json!({ "error": message }).to_string()
}

fn main() {
    let options = match parse_args() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("chant-example-engine: {message}");
            std::process::exit(64);
        }
    };
    if options.serve {
        serve(options);
    } else {
        let mut body = Vec::new();
        if let Err(e) = std::io::Read::read_to_end(&mut std::io::stdin(), &mut body) {
            eprintln!("chant-example-engine: reading stdin: {e}");
            std::process::exit(74);
        }
        std::thread::sleep(options.delay);
        match predict(&body, options.invoice.as_ref()) {
            Ok(answer) => println!("{answer}"),
            Err(BadRequest(message)) => {
                eprintln!("chant-example-engine: {message}");
                std::process::exit(65);
            }
        }
    }
}

fn serve(options: Options) {
    let address = options
        .listen
        .clone()
        .unwrap_or_else(|| "127.0.0.1:0".to_owned());
    let listener = match std::net::TcpListener::bind(&address) {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("chant-example-engine: cannot listen on {address}: {e}");
            std::process::exit(69);
        }
    };
    let bound = listener
        .local_addr()
        .map(|a| a.to_string())
        .unwrap_or(address);
    println!("listening on http://{bound}");
    let _ = std::io::Write::flush(&mut std::io::stdout());
    let answered = AtomicU64::new(0);
    let received = AtomicU64::new(0);
    http::serve(listener, move |incoming| {
        let reply = |status, body| http::Reply { status, body };
        if incoming.method != "POST" {
            return reply(405, error_body("POST a request"));
        }
        if let Some(token) = &options.token
            && incoming.authorization.as_deref() != Some(&format!("Bearer {token}"))
        {
            return reply(401, error_body("the bearer token is missing or wrong"));
        }
        if options
            .quota
            .is_some_and(|q| received.fetch_add(1, Ordering::SeqCst) >= q)
        {
            return reply(429, error_body("request quota spent for this window"));
        }
        if options
            .credit
            .is_some_and(|c| answered.load(Ordering::SeqCst) >= c)
        {
            return reply(402, error_body("the account has no credit left"));
        }
        std::thread::sleep(options.delay);
        match predict(&incoming.body, options.invoice.as_ref()) {
            Ok(answer) => {
                answered.fetch_add(1, Ordering::SeqCst);
                reply(200, answer)
            }
            Err(BadRequest(message)) => reply(400, error_body(&message)),
        }
    });
}
