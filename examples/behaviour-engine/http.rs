//! A small HTTP/1.1 server on std: one thread per connection, one request per connection,
//! `POST` only. Enough for an example engine; not a general server.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};

pub struct Incoming {
    pub method: String,
    pub authorization: Option<String>,
    pub body: Vec<u8>,
}

pub struct Reply {
    pub status: u16,
    pub body: String,
}

/// Serve until the process is stopped, answering each request with `handle`.
pub fn serve(listener: TcpListener, handle: impl Fn(Incoming) -> Reply + Send + Sync + 'static) {
    let handle = std::sync::Arc::new(handle);
    for stream in listener.incoming().flatten() {
        let handle = handle.clone();
        std::thread::spawn(move || {
            let _ = stream.set_nodelay(true);
            if let Some(incoming) = read_request(&stream) {
                let reply = handle(incoming);
                let _ = write_reply(stream, &reply);
            }
        });
    }
}

fn read_request(stream: &TcpStream) -> Option<Incoming> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let method = line.split_whitespace().next()?.to_owned();
    let mut length = 0usize;
    let mut authorization = None;
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).ok()?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        let (name, value) = header.split_once(':')?;
        match name.trim().to_ascii_lowercase().as_str() {
            "content-length" => length = value.trim().parse().ok()?,
            "authorization" => authorization = Some(value.trim().to_owned()),
            _ => {}
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(Incoming {
        method,
        authorization,
        body,
    })
}

fn write_reply(mut stream: TcpStream, reply: &Reply) -> std::io::Result<()> {
    let reason = match reply.status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        402 => "Payment Required",
        405 => "Method Not Allowed",
        429 => "Too Many Requests",
        _ => "Error",
    };
    write!(
        stream,
        "HTTP/1.1 {} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{}",
        reply.status,
        reply.body.len(),
        reply.body
    )?;
    stream.flush()
}
