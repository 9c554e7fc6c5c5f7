//! `_scripts/painless/_execute` on the gateway (ES 6.8's lang-painless module): the body
//! read as ES reads it (`request::painless_execute`), run by the engine.

use super::{json_response, Response};
use crate::engine::Engine;
use crate::error::Result;
use crate::request::painless_execute::PainlessExecute;

/// The answer: `{"result": …}`, or the request's or the script's error.
pub(super) fn answer(engine: &Engine, body: &str, params: &[(String, String)]) -> Result<Response> {
    let request = PainlessExecute::parse(body)?;
    Ok(json_response(200, &engine.painless_execute(&request)?, params))
}
