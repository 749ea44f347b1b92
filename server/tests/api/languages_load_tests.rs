//! The load-tests page in German (#37): its headings, table heads, labels, buttons, notes and
//! the capacity twin's card speak German to a German reader; the English page is unchanged.

use crate::helpers::spawn_app;
use crate::languages::{english_left, german_missing};

/// English words of the load-tests page: none may show on it in German.
const ENGLISH_OF_THE_PAGE: &[&str] = &[
    ">Load tests<",
    "Compare runs",
    ">Capacity<",
    "Highest tested concurrency",
    "Capacity (requests in flight)",
    ">Tested up to<",
    ">Reading<",
    ">Capacity twin<",
    "Latency percentiles at a load the tests did not try",
    ">Arrival rate (req/s)<",
    ">Predict<",
    "Request throughput:",
    "Saturation rate:",
    "Reading the p50 / p95 / p99 spread",
    "Goodput and throughput",
    "Latency at the client, ms",
    ">Scenario<",
    ">OK / failed<",
    ">share good<",
    ">Spread<",
    "vs requests in flight",
    "vs request rate",
    " curves<",
    "uploaded ",
    "All latencies are measured at the client",
    "every target holds",
    "Targets: the latency marks",
    ">Compare…<",
    "TTFT p99 vs concurrency",
    "Loading…",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_german_reader_reads_the_load_tests_page_in_german() {
    let app = spawn_app().await;
    let admin = app.admin().await;

    // English first: the page as it always was.
    let english = app.page(&admin, "/pilots/1/load-tests").await;
    assert!(english.contains("<html lang=\"en\""));
    for heading in [
        "Reading the p50 / p95 / p99 spread (TTFT)",
        ">Capacity twin<",
        "Goodput and throughput",
    ] {
        assert!(english.contains(heading), "`{heading}` missing in English");
    }

    app.choose_language(&admin, "de").await;

    let html = app.page(&admin, "/pilots/1/load-tests").await;
    assert!(html.contains("<html lang=\"de\""));
    for german in [
        ">Lasttests<",
        "Läufe vergleichen",
        ">Kapazität<",
        "Höchste getestete Parallelität",
        "Kapazität (gleichzeitige Anfragen)",
        ">Getestet bis<",
        ">Kapazitäts-Zwilling<",
        ">Vorhersagen<",
        "Anfragedurchsatz:",
        "Sättigungsrate:",
        "Die Streuung p50 / p95 / p99 lesen (TTFT)",
        "Goodput und Durchsatz",
        "Latenz am Client, ms",
        ">Szenario<",
        ">Streuung<",
        "über gleichzeitigen Anfragen",
        ">p99-Kurven<",
        "Nachweis #",
        "hochgeladen ",
        "Alle Latenzen sind am Client gemessen",
        "Zielwerte: die Latenz-Zielwerte der Planversion",
        ">Vergleichen…<",
        "über der Parallelität",
    ] {
        assert!(
            html.contains(german),
            "`{german}` missing from the German load-tests page"
        );
    }
    assert_eq!(
        english_left(&html, ENGLISH_OF_THE_PAGE),
        Vec::<String>::new(),
        "English left on the load-tests page"
    );

    // The compare page's own words too, and a comparison's table and curves.
    let compare = app.page(&admin, "/pilots/1/load-tests/compare").await;
    for german in [">Lasttests vergleichen<", ">Referenz<", ">Vergleichen mit<"] {
        assert!(
            compare.contains(german),
            "`{german}` missing from the German compare page"
        );
    }
    for english in [">Compare load tests<", ">Baseline<", ">Compare with<"] {
        assert!(
            !compare.contains(english),
            "`{english}` left on the compare page"
        );
    }
    let id = html
        .split("load-tests/compare?baseline=")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a run to compare")
        .to_string();
    let compared = app
        .page(
            &admin,
            &format!("/pilots/1/load-tests/compare?baseline={id}:0&run={id}&p=p95"),
        )
        .await;
    for german in [
        "Referenz: #",
        "bei Parallelität 1 · Perzentil p95",
        ">Dieser Lauf<",
        ">Differenz<",
        "E2E-Latenz p95 (ms)",
        "TTFT p95 über der Parallelität",
    ] {
        assert!(
            compared.contains(german),
            "`{german}` missing from the German comparison"
        );
    }
    for english in [
        "Baseline: #",
        ">This run<",
        "E2E latency p95",
        "TTFT p95 vs concurrency",
    ] {
        assert!(
            !compared.contains(english),
            "`{english}` left on the German comparison"
        );
    }
}

/// How each uploaded file was read (its layout) and where each point came from (the scenario
/// cell's tooltip) are stored in English at import; the German page shows them in German, with
/// the flag, the file name and the line number as stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_german_reader_reads_the_import_layout_and_point_sources_in_german() {
    let app = spawn_app().await;
    let admin = app.admin().await;

    let english = app.page(&admin, "/pilots/1/load-tests").await;
    for stored in [
        "one result per line (--append-result); summary",
        "title=\"v100-qwen-benchmark-report.jsonl line 1\"",
    ] {
        assert!(english.contains(stored), "`{stored}` missing in English");
    }

    app.choose_language(&admin, "de").await;
    let html = app.page(&admin, "/pilots/1/load-tests").await;
    assert_eq!(
        german_missing(
            &html,
            &[
                "vllm bench serve · ein Ergebnis je Zeile (--append-result); Zusammenfassung · hochgeladen ",
                "title=\"v100-qwen-benchmark-report.jsonl Zeile 1\"",
                "title=\"v100-qwen-benchmark-report.jsonl Zeile 12\"",
            ]
        ),
        Vec::<&str>::new(),
        "the German layout and point sources"
    );
    assert_eq!(
        english_left(
            &html,
            &[
                "one result per line",
                "; summary ",
                "jsonl line 1",
                " line 12\""
            ]
        ),
        Vec::<String>::new(),
        "the stored English layout or point source left on the German page"
    );
}
