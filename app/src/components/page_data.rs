//! How a page's data travels from the server-rendered page into the browser.
//!
//! Leptos writes every resource's value into the page as JSON, and the browser reads it back
//! when it hydrates; server functions answer JSON that the browser reads as bytes. With the
//! default codec those are two different `serde_json` readers (`from_str` and `from_slice`), so
//! the wasm module carried two copies of every page type's deserialiser. [`PageJson`] reads
//! resources with the byte reader too: one copy, and a noticeably smaller bundle.

use leptos::prelude::*;
use leptos::server::codee::{Decoder, Encoder};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// JSON for resources, read with the same reader as server-function answers.
pub struct PageJson;

impl<T: Serialize> Encoder<T> for PageJson {
    type Error = serde_json::Error;
    type Encoded = String;

    fn encode(value: &T) -> Result<String, serde_json::Error> {
        serde_json::to_string(value)
    }
}

impl<T: DeserializeOwned> Decoder<T> for PageJson {
    type Error = serde_json::Error;
    type Encoded = str;

    fn decode(value: &str) -> Result<T, serde_json::Error> {
        serde_json::from_slice(value.as_bytes())
    }
}

/// A page's data: a resource read through [`PageJson`].
pub type PageResource<T> = Resource<T, PageJson>;

/// [`Resource::new`] through [`PageJson`]: `source` is tracked, `fetcher` loads.
#[track_caller]
pub fn page_resource<S, T, Fut>(
    source: impl Fn() -> S + Send + Sync + 'static,
    fetcher: impl Fn(S) -> Fut + Send + Sync + 'static,
) -> PageResource<T>
where
    S: PartialEq + Clone + Send + Sync + 'static,
    T: Serialize + DeserializeOwned + Send + Sync + 'static,
    Fut: std::future::Future<Output = T> + Send + 'static,
{
    Resource::new_with_options(source, fetcher, false)
}
