//! The script-regex switch (ES's `script.painless.regex.enabled`) through the C ABI:
//! `mg_set_script_regex` turns regexes in scripts on and off for an open handle, as
//! `serve --script-regex` and `Engine::set_script_regex` do. (Python's `script_regex`
//! open option sits on this function; the WASM module's `scriptRegex` option is tested
//! under Node, `wasm/test/module.test.mjs`.)

mod common;

use metagate::{Engine, LoadOptions};
use serde_json::Value;
use std::ffi::{c_char, c_void, CStr, CString};

mod c_abi {
    use std::ffi::{c_char, c_void};
    extern "C" {
        pub fn mg_open(path: *const c_char, mode: i32, out: *mut *mut c_void, err: *mut *mut c_char) -> i32;
        pub fn mg_close(h: *mut c_void);
        pub fn mg_set_script_regex(h: *const c_void, on: i32) -> i32;
        pub fn mg_search(h: *const c_void, index: *const c_char, body: *const c_char, out: *mut *mut c_char) -> i32;
        pub fn mg_string_free(s: *mut c_char);
    }
}

/// A search through the C ABI: its status and JSON answer.
fn search(h: *const c_void, index: &str, body: &str) -> (i32, Value) {
    let (index, body) = (CString::new(index).unwrap(), CString::new(body).unwrap());
    let mut out: *mut c_char = std::ptr::null_mut();
    // SAFETY: valid C strings, a live handle and a writable out pointer.
    let status = unsafe { c_abi::mg_search(h, index.as_ptr(), body.as_ptr(), &mut out) };
    // SAFETY: `out` is the NUL-terminated string mg_search allocated; freed once.
    let text = unsafe { CStr::from_ptr(out).to_string_lossy().into_owned() };
    unsafe { c_abi::mg_string_free(out) };
    (status, serde_json::from_str(&text).unwrap())
}

#[test]
fn mg_set_script_regex_switches_regexes_in_scripts() {
    let path = common::temp_file("script-regex-c");
    {
        let e = Engine::open_or_create(&path).unwrap();
        let opts = LoadOptions::default();
        e.load("words", &b"{\"w\": \"metagate\"}\n"[..], &opts, &mut |_, _| {}).unwrap();
    }
    let file = CString::new(path.to_str().unwrap()).unwrap();
    let mut handle: *mut c_void = std::ptr::null_mut();
    let mut err: *mut c_char = std::ptr::null_mut();
    // SAFETY: a valid C string and writable out pointers.
    assert_eq!(unsafe { c_abi::mg_open(file.as_ptr(), 0, &mut handle, &mut err) }, 0);
    let h = handle as *const c_void;
    let body = r#"{"script_fields": {"m": {"script": "params._source.w ==~ /meta.*/"}}}"#;
    let refused =
        |v: &Value| v["error"]["failed_shards"][0]["reason"]["caused_by"]["reason"].as_str().map(str::to_string);

    let (status, v) = search(h, "words", body);
    assert_eq!(status, 400, "{v}");
    assert!(refused(&v).unwrap_or_default().starts_with("Regexes are disabled."), "{v}");

    // SAFETY: a live handle.
    assert_eq!(unsafe { c_abi::mg_set_script_regex(h, 1) }, 0);
    let (status, v) = search(h, "words", body);
    assert_eq!((status, &v["hits"]["hits"][0]["fields"]["m"]), (200, &serde_json::json!([true])), "{v}");

    // SAFETY: a live handle.
    assert_eq!(unsafe { c_abi::mg_set_script_regex(h, 0) }, 0);
    assert_eq!(search(h, "words", body).0, 400);
    // A NULL handle is refused, not a crash.
    // SAFETY: NULL is allowed and answered with 400.
    assert_eq!(unsafe { c_abi::mg_set_script_regex(std::ptr::null(), 1) }, 400);
    // SAFETY: the handle came from mg_open and is closed once.
    unsafe { c_abi::mg_close(handle) };
}
