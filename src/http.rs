//! The tiny_http adapter: translates HTTP to `gateway::Request` and back, nothing more.

use crate::gateway::{redact, Gateway, Request, Response};
use std::io::Read;
use std::sync::Arc;
use web_time::Instant;

/// Serves `gateway` on `bind` with `threads` workers until the process ends.
pub fn serve(gateway: Arc<Gateway>, bind: &str, threads: usize, max_body: usize) -> crate::Result<()> {
    let server =
        tiny_http::Server::http(bind).map_err(|e| crate::Error::storage(format!("cannot listen on {bind}: {e}")))?;
    let server = Arc::new(server);
    let mut workers = Vec::new();
    for _ in 0..threads.max(1) {
        let server = server.clone();
        let gateway = gateway.clone();
        workers.push(std::thread::spawn(move || {
            for mut request in server.incoming_requests() {
                let started = Instant::now();
                let req = match read_request(&mut request, max_body) {
                    Ok(r) => r,
                    Err(status) => {
                        let body = format!("{{\"error\":\"request body is larger than the limit of [{max_body}] bytes\",\"status\":{status}}}");
                        let _ = request.respond(tiny_http::Response::from_string(body).with_status_code(status));
                        continue;
                    }
                };
                let resp = gateway.handle(&req);
                log_line(&req, &resp, started);
                let _ = request.respond(to_tiny(resp));
            }
        }));
    }
    for w in workers {
        let _ = w.join();
    }
    Ok(())
}

fn read_request(request: &mut tiny_http::Request, max_body: usize) -> Result<Request, u16> {
    let headers: Vec<(String, String)> = request
        .headers()
        .iter()
        .map(|h| (h.field.as_str().as_str().to_string(), h.value.as_str().to_string()))
        .collect();
    let mut body = Vec::new();
    // Read one byte past the cap to detect oversized bodies without buffering them.
    let limit = max_body as u64 + 1;
    if request.as_reader().take(limit).read_to_end(&mut body).is_err() {
        return Err(400);
    }
    if body.len() > max_body {
        return Err(413);
    }
    Ok(Request { method: request.method().as_str().to_string(), path: request.url().to_string(), headers, body })
}

fn to_tiny(resp: Response) -> tiny_http::Response<std::io::Cursor<Vec<u8>>> {
    let mut r = tiny_http::Response::from_data(resp.body).with_status_code(resp.status);
    for (k, v) in resp.headers {
        if k.eq_ignore_ascii_case("Content-Length") {
            continue;
        }
        if let Ok(h) = tiny_http::Header::from_bytes(k.as_bytes(), v.as_bytes()) {
            r.add_header(h);
        }
    }
    r
}

fn log_line(req: &Request, resp: &Response, started: Instant) {
    eprintln!(
        "{} {} {} {:.1}ms key={}",
        req.method,
        redact(&req.path),
        resp.status,
        started.elapsed().as_secs_f64() * 1000.0,
        resp.key_name.as_deref().unwrap_or("-")
    );
}
