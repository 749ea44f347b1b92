//! The calibration page in German (#37): its headings, the form that adds a start-up log and
//! the table that sets a log against the sizing engine carry their German words and none of
//! their English ones; in English it reads as before.

use crate::helpers::spawn_app;
use reqwest::StatusCode;

/// A start-up log in the shape vLLM V1 prints (Llama 3.1 8B, one H100), as `calibration.rs`.
const LOG: &str = "\
INFO 10-02 09:00:01 [api_server.py:1234] vLLM API server version 0.10.2
INFO 10-02 09:00:01 [utils.py:326] non-default args: {'model': 'meta-llama/Llama-3.1-8B-Instruct', 'max_model_len': 8192, 'tensor_parallel_size': 1}
INFO 10-02 09:00:40 [gpu_model_runner.py:1953] Model loading took 14.9889 GiB and 20.5 seconds
INFO 10-02 09:00:55 [gpu_worker.py:276] Available KV cache memory: 54.12 GiB
INFO 10-02 09:00:55 [kv_cache_utils.py:849] GPU KV cache size: 443,328 tokens
INFO 10-02 09:00:55 [kv_cache_utils.py:853] Maximum concurrency for 8,192 tokens per request: 54.12x
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_german_viewer_reads_the_calibration_page_its_form_and_its_table_in_german() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    app.choose_language(&admin, "de").await;

    // Before any log: the empty state and the form.
    let html = app.page(&admin, "/pilots/1/calibration").await;
    assert!(html.contains("<html lang=\"de\""));
    for german in [
        "Kalibrierung · ",
        "vLLM-Start-Logs",
        "vLLM-Speichermodell der Dimensionierung",
        "Noch kein Start-Log",
        "Fügen Sie die ersten Zeilen ein",
        "Start-Log hinzufügen",
        ">vLLM-Start-Log<",
        ">Modell<",
        ">aus dem Log / Piloten<",
        ">aus dem Piloten<",
        ">Gewichte<",
        ">KV-Cache<",
        ">aus dem Log<",
        "werden daraus gelesen",
        ">Speichern und vergleichen<",
    ] {
        assert!(
            html.contains(german),
            "`{german}` missing from the German calibration page"
        );
    }
    for english in [
        "Calibration · ",
        ">Pilots<",
        " / Calibration",
        "vLLM start-up logs",
        "No start-up log yet",
        "Paste the first lines",
        "Add a start-up log",
        ">vLLM start-up log<",
        ">Model<",
        ">from the log / pilot<",
        ">from the pilot<",
        ">Weights<",
        ">KV cache<",
        ">from the log<",
        "are read from it",
        "Store and compare",
    ] {
        assert!(
            !html.contains(english),
            "`{english}` left on the German calibration page"
        );
    }

    // A stored log: its card and the comparison table.
    let stored = app
        .call(
            &admin,
            "add_startup_log",
            &[
                ("pilot_id", "1"),
                ("log_text", LOG),
                ("model", ""),
                ("weights", "bf16"),
                ("kv_dtype", ""),
                ("gpu", "h100-sxm"),
                ("tp", ""),
                ("context", ""),
            ],
        )
        .await;
    assert_eq!(
        stored.status(),
        StatusCode::OK,
        "{}",
        stored.text().await.unwrap()
    );
    let html = app.page(&admin, "/pilots/1/calibration").await;
    for german in [
        "Nachweis #",
        "hochgeladen am",
        " · Gewichte bf16 · KV-Cache ",
        " · Auslastung Standard",
        ">Kennzahl (Engine, beim Start)<",
        ">Vorhergesagt<",
        ">Von vLLM ausgegeben<",
        ">Abweichung<",
        "Größe des GPU-KV-Cache (Token)",
        "Maximale Parallelität (x)",
        "Verfügbarer KV-Cache-Speicher (GiB)",
        "Gewichte pro Karte (GiB)",
        ">443.328<",
    ] {
        assert!(
            html.contains(german),
            "`{german}` missing from the German calibration table"
        );
    }
    for english in [
        "Evidence #",
        "uploaded ",
        " weights · ",
        "utilisation default",
        "Figure (engine, at start-up)",
        ">Predicted<",
        ">vLLM printed<",
        ">Difference<",
        "GPU KV cache size (tokens)",
        "Maximum concurrency (x)",
        "Available KV cache memory (GiB)",
        "Weights per card (GiB)",
        "No start-up log yet",
    ] {
        assert!(
            !html.contains(english),
            "`{english}` left on the German calibration table"
        );
    }

    // In English the page reads as before, with one heading.
    app.choose_language(&admin, "en").await;
    let html = app.page(&admin, "/pilots/1/calibration").await;
    assert!(html.contains("<html lang=\"en\""));
    assert_eq!(
        html.matches(">vLLM start-up logs<").count(),
        1,
        "one heading"
    );
    for english in [
        "Calibration · ",
        " / Calibration",
        "Evidence #",
        " weights · ",
        ">Figure (engine, at start-up)<",
        ">Predicted<",
        ">vLLM printed<",
        ">Difference<",
        "GPU KV cache size (tokens)",
        ">443,328<",
        "Add a start-up log",
        ">Store and compare<",
    ] {
        assert!(
            html.contains(english),
            "`{english}` missing from the English calibration page"
        );
    }
    for german in ["Kalibrierung", "Vorhergesagt", "Start-Log hinzufügen"] {
        assert!(
            !html.contains(german),
            "`{german}` on the English calibration page"
        );
    }
}

/// The pager under a long list speaks German too: 51 files on the evidence page.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_german_viewer_pages_through_a_long_list_in_german() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let token = app.api_token(&admin).await;
    let org = app.organisation(&admin, "Many Files Ltd").await;
    let pilot = app.pilot(&admin, org, "Fifty-one logs").await;
    for n in 1..=51 {
        let name = format!("day-{n:02}.jsonl");
        let line = format!(
            r#"{{"request_id": "{name}", "start_time": "2026-03-02T09:00:00Z", "end_time": "2026-03-02T09:00:10Z", "model": "qwen3-8b", "status": "ok", "prompt_tokens": 100, "completion_tokens": 50}}"#
        ) + "\n";
        let response = app
            .upload_evidence(&token, pilot, &name, line.into_bytes(), &[])
            .await;
        assert_eq!(response.status(), StatusCode::CREATED, "{name}");
    }
    app.choose_language(&admin, "de").await;
    let html = app.page(&admin, &format!("/pilots/{pilot}/evidence")).await;
    for german in [
        "Dateien 1–50 von 51, neueste zuerst",
        "Seite 1 von 2",
        "aria-label=\"Seiten der Dateien\"",
        ">« Erste<",
        ">‹ Zurück<",
        ">Weiter ›<",
        ">Letzte »<",
    ] {
        assert!(
            html.contains(german),
            "`{german}` missing from the German pager"
        );
    }
    for english in [
        "newest first",
        "Page 1 of 2",
        "Pages of files",
        ">« First<",
        ">‹ Previous<",
        ">Next ›<",
        ">Last »<",
    ] {
        assert!(
            !html.contains(english),
            "`{english}` left on the German pager"
        );
    }
}
