//! The evidence page in German (#37): its headings, the upload form and the list of stored
//! files carry their German words and none of their English ones; in English it reads as before.

use crate::helpers::spawn_app;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_german_viewer_reads_the_evidence_page_and_its_upload_form_in_german() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    app.choose_language(&admin, "de").await;

    let html = app.page(&admin, "/pilots/1/evidence").await;
    assert!(html.contains("<html lang=\"de\""));
    for german in [
        // The page.
        "Nachweise · ",
        ">Piloten<",
        "Lasttest-Kurven",
        "Rohdateien werden unter ihrem SHA-256",
        "Gespeicherte Dateien",
        // The upload form.
        "Nachweise hochladen",
        "Was ist es?",
        "Erkennen: Lasttest, Start-Log, Gateway-Log",
        "Evaluationslauf: womit er bedient wurde",
        "Nachweisdateien hier ablegen",
        "Dateien auswählen…",
        ">Alle verwerfen<",
        "Laufkontext: Hardware und Serving-Einstellungen",
        "Einstellungen daraus lesen",
        "Datentyp des KV-Cache",
        ">nicht angegeben<",
        "Vor dem Speichern prüfen",
        // The list of stored files.
        ">Datei<",
        ">Art<",
        ">Werkzeug / Version<",
        ">Laufkontext<",
        ">Größe<",
        ">Hochgeladen<",
        ">Gültig<",
        ">Lasttest<",
        "Zurückziehen…",
    ] {
        assert!(
            html.contains(german),
            "`{german}` missing from the German evidence page"
        );
    }
    for english in [
        "Evidence · ",
        ">Pilots<",
        "Load-test curves",
        "Raw files are kept",
        "Stored files",
        "Upload evidence",
        "What is it?",
        "Detect: load test",
        "what served it",
        "Drop evidence files here",
        "Choose files",
        ">Discard all<",
        "hardware and serving settings",
        "Read settings from it",
        "KV-cache dtype",
        "not stated",
        "Check before storing",
        ">File<",
        ">Kind<",
        ">Tool / version<",
        ">Run context<",
        ">Size<",
        ">Uploaded<",
        ">In force<",
        ">load test<",
        "Withdraw…",
        "a deleted account",
    ] {
        assert!(
            !html.contains(english),
            "`{english}` left on the German evidence page"
        );
    }

    // In English the page reads as it always did.
    app.choose_language(&admin, "en").await;
    let html = app.page(&admin, "/pilots/1/evidence").await;
    assert!(html.contains("<html lang=\"en\""));
    for english in [
        "Upload evidence",
        "Stored files",
        "Drop evidence files here",
        ">Uploaded<",
        ">In force<",
    ] {
        assert!(
            html.contains(english),
            "`{english}` missing from the English evidence page"
        );
    }
    assert!(!html.contains("Nachweise hochladen"));
}
