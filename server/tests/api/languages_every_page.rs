//! Every page in German (#37, item 1): each page the demo's admin can open is fetched in
//! English and in German, and a text the product wrote that reads the same in both (a text node,
//! a chart's word, a tooltip, a placeholder or an accessible name) is English left on the German
//! page, unless it is no language's (units, metric names, product names) or the demo's own data
//! (names, file names, e-mail addresses). German text with an English function word in it fails
//! too. The per-page tests (`languages_*.rs`) check each page's German words; this one walks them
//! all.

use crate::helpers::{TestApp, client, spawn_app};
use crate::report_german::{chart_text_nodes, plain, text_nodes};
use reqwest::Client;

/// Every page of the app, as the demo's admin opens them.
const PAGES: &[&str] = &[
    "/",
    "/pilots/new",
    "/pilots/1",
    "/pilots/1/edit",
    "/pilots/1/plan",
    "/pilots/1/plan/edit",
    "/pilots/1/plan/history",
    "/pilots/1/load-tests",
    "/pilots/1/load-tests/compare",
    "/pilots/1/traffic",
    "/pilots/1/quality",
    "/pilots/1/quality/set",
    "/pilots/1/evidence",
    "/pilots/1/calibration",
    "/pilots/1/report",
    "/sizing",
    "/account",
    "/admin/users",
    "/admin/organisations",
    "/admin/gpus",
    "/no-such-page",
];

/// The pages of one pilot, after `/pilots/{id}`.
const PILOT_PAGES: &[&str] = &[
    "",
    "/edit",
    "/plan",
    "/plan/edit",
    "/plan/history",
    "/load-tests",
    "/load-tests/compare",
    "/traffic",
    "/quality",
    "/quality/set",
    "/evidence",
    "/calibration",
    "/report",
];

/// Words that are no language's: units, metric and statistic names, product and file-format
/// names, the abbreviations both editions print as they are.
const NEUTRAL: &[&str] = &[
    "UTC",
    "ms",
    "s",
    "h",
    "min",
    "req",
    "tok",
    "GB",
    "GiB",
    "TB",
    "MB",
    "KB",
    "KiB",
    "W",
    "TTFT",
    "TPOT",
    "ITL",
    "E2E",
    "KV",
    "p50",
    "p90",
    "p95",
    "p99",
    "n",
    "vLLM",
    "SGLang",
    "Pilot",
    "Desk",
    "Status",
    "Goodput",
    "Definition",
    "NVIDIA",
    "AMD",
    "API",
    "REST",
    "OpenAPI",
    "JSON",
    "JSONL",
    "CSV",
    "PDF",
    "HTML",
    "YAML",
    "SHA-256",
    "AIPerf",
    "GenAI-Perf",
    "guidellm",
    "GuideLLM",
    "LiteLLM",
    "Prometheus",
    "FP16",
    "BF16",
    "FP8",
    "INT4",
    "INT8",
    "AWQ",
    "GPTQ",
    "fp16",
    "bf16",
    "fp8",
    "auto",
    "TP",
    "PP",
    "GPU",
    "GPUs",
    "CPU",
    "NVLink",
    "PCIe",
    "SXM",
    "MoE",
    "CUDA",
    "Deutsch",
    "English",
    "Admin",
    "Client",
    "Gateway",
    "Engine",
    "Token",
    "Tokens",
    "Bearer",
    "Authorization",
    "pd",
    "ID",
    "URL",
    "HTTP",
    "HTTPS",
    "Mooncake",
    "SLO",
    "max",
    "min",
    "Max",
    "Min",
    "Name",
    "E-Mail",
    "Tesla",
    "Qwen",
    "Llama",
    "Mistral",
    "ShareGPT",
    "Instruct",
    "RedHatAI",
    "Chat",
    "OK",
    "Demo",
    "Customer",
    "Support",
    "assistant",
    // German words too.
    "Administrator",
    "Organisation",
    "Plan",
    "Version",
    "Format",
    "Prompt",
    "Id",
    // A user's initials in the header.
    "PD",
    // Tools named as they are.
    "nvidia-smi",
    "lm-evaluation-harness",
];

/// The demo's own data: names and prose that read the same in both languages. A text node that
/// starts with one is the demo's.
const DEMO_DATA: &[&str] = &[
    "Support assistant: Qwen2.5-7B on 4× V100",
    "Interactive support chat on a private Qwen2.5-7B-Instruct, served by vLLM",
    "Demo Customer",
    "ShareGPT long prompt → short answer",
    "ShareGPT balanced chat",
    "ShareGPT short prompt → long answer",
    "vllm bench serve",
    "vllm serve",
    "Pilot Desk staff",
    "MLPerf v6.0 interactive limit for Llama 2 70B",
];

/// The demo's evaluation set and its two runs (questions and answers are the customer's data).
const DEMO_QUALITY: [&str; 3] = [
    include_str!("../../../desk/src/quality/quality_demo/set.csv"),
    include_str!("../../../desk/src/quality/quality_demo/run-fp16.csv"),
    include_str!("../../../desk/src/quality/quality_demo/run-awq-int4.csv"),
];

/// Data every page may show as it is: the demo's evaluation texts, the catalog's GPU and model
/// names.
fn catalog_and_demo_data() -> std::collections::HashSet<String> {
    let mut data: std::collections::HashSet<String> = DEMO_QUALITY
        .iter()
        .flat_map(|csv| csv.lines().skip(1))
        .flat_map(|line| line.split(',').map(str::to_string).collect::<Vec<_>>())
        .collect();
    for gpu in engine::sizing::gpus() {
        data.insert(gpu.name);
        data.insert(gpu.id);
    }
    data.extend(engine::sizing::models().into_iter().map(|m| m.name));
    data
}

/// English words that give away an English sentence whose numbers the locale changed.
const TELLTALES: &[&str] = &[
    " the ", " of ", " with ", " and ", " per ", " at ", " is ", " are ", " not ", " from ",
    " this ", " to ", " when ", " for ",
];

/// The texts of a page a reader sees or hears: its text nodes (outside scripts), its charts'
/// words and its tooltips, placeholders and accessible names.
fn page_texts(html: &str) -> Vec<String> {
    let mut visible = String::new();
    let mut rest = html;
    while let Some(start) = rest.find("<script") {
        visible.push_str(&rest[..start]);
        rest = match rest[start..].find("</script>") {
            Some(end) => &rest[start + end + "</script>".len()..],
            None => "",
        };
    }
    visible.push_str(rest);
    let mut texts = text_nodes(&visible);
    texts.extend(chart_text_nodes(&visible));
    for attribute in [" title=\"", " placeholder=\"", " aria-label=\"", " alt=\""] {
        texts.extend(
            visible
                .split(attribute)
                .skip(1)
                .filter_map(|piece| piece.split_once('"').map(|(value, _)| value))
                // A tooltip's lines are texts of their own.
                .flat_map(|value| value.split(['\n', '\r']).map(plain).collect::<Vec<_>>())
                .filter(|value| !value.is_empty()),
        );
    }
    texts
}

/// Whether `text` reads the same in both languages: data, code, citations, or only words that
/// are no language's.
fn neutral(text: &str, data: &std::collections::HashSet<String>) -> bool {
    // A chart cuts long names short (`NVIDIA RTX PRO 6000 Blackwell Max-`).
    if text.len() >= 20 && data.iter().any(|d| d.starts_with(text)) {
        return true;
    }
    if data.contains(text)
        || DEMO_DATA.iter().any(|d| text.starts_with(d))
        || text.contains(" --")
        // Code the reader copies (a configuration line, a shell command, a query).
        || text.starts_with("Authorization=")
        || text.starts_with("callbacks: [")
        || text.starts_with('{')
        || text.starts_with("apt-get ")
        || text.starts_with("curl ")
        // A file format's column names.
        || text.chars().all(|c| c.is_ascii_lowercase() || " _,|".contains(c))
        // A line of vLLM's log, quoted as vLLM prints it.
        || text.starts_with("INFO ")
        // A citation, quoted as published.
        || text.contains("http://")
        || text.contains("https://")
    {
        return true;
    }
    text.split_whitespace()
        // File names, e-mail addresses, paths and hashes are data.
        .filter(|token| {
            let token = token.trim_matches(|c: char| ",;:()„“”\"'".contains(c));
            !(token.contains('@')
                || token.starts_with('/')
                || token.contains('_')
                || [".json", ".jsonl", ".csv", ".txt", ".yaml", ".pdf", ".html"]
                    .iter()
                    .any(|ext| token.ends_with(ext))
                || (token.len() >= 12 && token.chars().all(|c| c.is_ascii_hexdigit())))
        })
        .flat_map(|token| token.split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '.')))
        .map(|w| w.trim_matches(|c: char| c == '.' || c == '-'))
        .filter(|w| w.chars().any(char::is_alphabetic))
        // Model and GPU names carry digits (`Qwen2.5-7B`, `V100`, `H200`).
        .filter(|w| !w.chars().any(|c| c.is_ascii_digit()))
        .all(|w| NEUTRAL.contains(&w))
}

/// The English `path` leaves on its German page: texts of the English page found unchanged on
/// the German one, and German texts with an English function word.
async fn english_left(
    app: &TestApp,
    english: &Client,
    german: &Client,
    path: &str,
    data: &std::collections::HashSet<String>,
) -> Vec<String> {
    let fetch = |who: &Client, lang: &'static str| {
        let request = who.get(app.url(path)).send();
        async move {
            let response = request.await.unwrap();
            let status = response.status();
            assert!(
                status.is_success() || status == reqwest::StatusCode::NOT_FOUND,
                "{path}: {status}"
            );
            let html = response.text().await.unwrap();
            // `KEEP_PAGES=/tmp/p` keeps `/tmp/p<path with _>-<lang>.html` to look at.
            if let Some(keep) = std::env::var_os("KEEP_PAGES") {
                let name = format!(
                    "{}{}-{lang}.html",
                    keep.to_string_lossy(),
                    path.replace('/', "_")
                );
                std::fs::write(name, &html).unwrap();
            }
            page_texts(&html)
        }
    };
    let english_texts = fetch(english, "en").await;
    let german_texts = fetch(german, "de").await;
    let german_set: std::collections::HashSet<&str> =
        german_texts.iter().map(String::as_str).collect();
    let mut left: Vec<String> = english_texts
        .iter()
        .filter(|text| german_set.contains(text.as_str()) && !neutral(text, data))
        .cloned()
        .collect();
    left.extend(
        german_texts
            .iter()
            .filter(|text| !neutral(text, data))
            .filter(|text| {
                // What a German text quotes („…“: a tool's own output) is not its wording.
                let own: String = text
                    .split('„')
                    .enumerate()
                    .map(|(i, piece)| {
                        if i == 0 {
                            piece
                        } else {
                            piece.split_once('“').map_or("", |(_, rest)| rest)
                        }
                    })
                    .collect();
                let padded = format!(" {} ", own.to_lowercase());
                TELLTALES.iter().any(|w| padded.contains(w))
            })
            .cloned(),
    );
    left.sort_unstable();
    left.dedup();
    left.into_iter()
        .map(|text| format!("{path}: {text}"))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_in_german_has_no_english_left() {
    let app = spawn_app().await;
    let english = app.admin().await;
    let german = client();
    app.login(&german, crate::helpers::ADMIN, &app.admin_password)
        .await;
    // The German browser chooses German; the English one asks for English explicitly (the
    // choice is kept per browser here: both are the same account).
    german
        .post(app.url("/language"))
        .form(&[("lang", "de"), ("back", "/")])
        .send()
        .await
        .unwrap();
    english
        .post(app.url("/language"))
        .form(&[("lang", "en"), ("back", "/")])
        .send()
        .await
        .unwrap();
    // The demo's recommendation made first (the API computes it), so the pilot page shows it
    // rather than "being computed", whenever each page is read.
    let made = english
        .get(app.url("/api/v1/pilots/1/recommendation"))
        .send()
        .await
        .unwrap();
    assert!(made.status().is_success(), "{}", made.status());
    let mut data = catalog_and_demo_data();
    let mut left = Vec::new();
    for path in PAGES {
        left.extend(english_left(&app, &english, &german, path, &data).await);
    }
    // A pilot with nothing yet: every page's empty state.
    let empty = crate::fidelity::pilot(&app, &english, "Empty", "Acme-13B", "Acme X1").await;
    data.extend(
        [
            "Empty",
            "Empty Corp",
            "Empty · Empty Corp",
            "fidelity test",
            "1 × Acme X1",
            // Templates named after what they cite.
            "MLPerf Inference v6.0 · Llama 2 70B · Interactive",
            "MLPerf Inference v6.0 · Llama 2 70B · Server",
            "Batch / offline",
        ]
        .map(String::from),
    );
    for page in PILOT_PAGES {
        let path = format!("/pilots/{empty}{page}");
        left.extend(english_left(&app, &english, &german, &path, &data).await);
    }
    // What a customer of the demo reads (their pages word some things for customers).
    let organisation = app
        .store
        .organisation_by_name("Demo Customer")
        .await
        .unwrap()
        .unwrap()
        .0;
    let customer_en = app
        .user(&english, "dana@demo.example", "customer", organisation)
        .await;
    let customer_de = client();
    app.login(&customer_de, "dana@demo.example", crate::helpers::PASSWORD)
        .await;
    app.choose_language(&customer_de, "de").await;
    app.choose_language(&customer_en, "en").await;
    data.insert("dana@demo.example".into());
    for path in [
        "/",
        "/pilots/1",
        "/pilots/1/plan",
        "/pilots/1/report",
        "/account",
    ] {
        let left_here = english_left(&app, &customer_en, &customer_de, path, &data).await;
        left.extend(left_here.into_iter().map(|l| format!("customer {l}")));
    }
    assert!(
        left.is_empty(),
        "{} English texts on German pages:\n{}",
        left.len(),
        left.join("\n")
    );
}
