//! The interface in English and German (#37): the language comes from the person's choice (the
//! switch's cookie), else the browser's `Accept-Language`, else English; `<html lang>` follows;
//! the translated pages carry none of their English words.

use crate::helpers::{client, spawn_app};
use reqwest::StatusCode;

/// The English words of the frame, the sign-in page and the pilots list: none may show on
/// those pages in German.
const ENGLISH_OF_THE_FRAME: &[&str] = &[
    "Skip to content",
    "Sign out",
    ">Sizing<",
    ">Pilots<",
    "Every customer",
    "Pilot hardware",
    "Serving engine",
    ">Updated<",
    ">Verdict<",
    ">Customer<",
    ">Reporting<",
    "plans, evidence and reports",
    "pass marks met",
    "being graded",
];

/// Each of the English words `english` left in `html`, with the text around it so a failure
/// says where (every `languages*` test reads its page through this).
pub(crate) fn english_left(html: &str, english: &[&str]) -> Vec<String> {
    english
        .iter()
        .filter_map(|word| {
            let at = html.find(word)?;
            let start = (0..=at.saturating_sub(80))
                .rev()
                .find(|&i| html.is_char_boundary(i))
                .unwrap_or(0);
            let end = ((at + word.len() + 80).min(html.len())..=html.len())
                .find(|&i| html.is_char_boundary(i))
                .unwrap_or(html.len());
            Some(format!("{word}: …{}…", &html[start..end]))
        })
        .collect()
}

/// Each of the German words `german` that `html` lacks.
pub(crate) fn german_missing<'a>(html: &str, german: &[&'a str]) -> Vec<&'a str> {
    german
        .iter()
        .copied()
        .filter(|word| !html.contains(word))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sign_in_page_follows_the_browser_and_the_switch_remembers_the_choice() {
    let app = spawn_app().await;
    let english = client().get(app.url("/login")).send().await.unwrap();
    let html = english.text().await.unwrap();
    assert!(html.contains("<html lang=\"en\""), "English by default");
    assert!(html.contains("Sign in") && html.contains(">Deutsch<"));

    let german = client()
        .get(app.url("/login"))
        .header("accept-language", "de-DE,de;q=0.9,en;q=0.8")
        .send()
        .await
        .unwrap();
    assert_eq!(german.status(), StatusCode::OK);
    let html = german.text().await.unwrap();
    assert!(html.contains("<html lang=\"de\""), "the browser's language");
    assert!(html.contains("Anmelden") && html.contains("E-Mail-Adresse"));
    assert!(
        html.contains(">English<"),
        "the switch offers the other language"
    );
    assert!(!html.contains(">Sign in<"), "no English heading left");

    // The switch: a cookie for a year, back to the page it came from (the browser's Referer;
    // the page holds no copy of its address).
    let browser = client();
    let switched = browser
        .post(app.url("/language"))
        .header("referer", app.url("/login?next=/sizing#top"))
        .form(&[("lang", "de")])
        .send()
        .await
        .unwrap();
    assert_eq!(switched.status(), StatusCode::SEE_OTHER);
    assert_eq!(switched.headers()["location"], "/login?next=/sizing");
    let cookie = switched.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        cookie.starts_with("pilotdesk_lang=de;") && cookie.contains("HttpOnly"),
        "{cookie}"
    );
    // Remembered without any Accept-Language, and it wins over the browser's.
    let html = browser
        .get(app.url("/login"))
        .header("accept-language", "en-GB")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(html.contains("<html lang=\"de\"") && html.contains("Anmelden"));

    // Never an open redirect (a script's `back`, a Referer from elsewhere); never a language
    // the product does not speak.
    let cross_site = client()
        .post(app.url("/language"))
        .header("referer", "https://evil.example/x")
        .form(&[("lang", "en")])
        .send()
        .await
        .unwrap();
    assert_eq!(
        cross_site.status(),
        StatusCode::FORBIDDEN,
        "another site cannot switch it"
    );
    let odd_referer = client()
        .post(app.url("/language"))
        .header("referer", app.url("//evil.example/x"))
        .form(&[("lang", "en")])
        .send()
        .await
        .unwrap();
    assert_eq!(odd_referer.headers()["location"], "/");
    let elsewhere = client()
        .post(app.url("/language"))
        .form(&[("lang", "en"), ("back", "//evil.example/x")])
        .send()
        .await
        .unwrap();
    assert_eq!(elsewhere.headers()["location"], "/");
    let french = client()
        .post(app.url("/language"))
        .form(&[("lang", "fr"), ("back", "/")])
        .send()
        .await
        .unwrap();
    assert_eq!(french.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body = french.text().await.unwrap();
    assert!(body.contains("lang: `fr` is not a language"), "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_signed_in_choice_follows_the_user_to_another_browser() {
    let app = spawn_app().await;
    // Never chosen: signing in sets no language, the browser's decides.
    let first = client();
    let response = app
        .call(
            &first,
            "login",
            &[
                ("email", crate::helpers::ADMIN),
                ("password", &app.admin_password),
            ],
        )
        .await;
    let cookies: Vec<_> = response.headers().get_all("set-cookie").iter().collect();
    assert!(
        cookies
            .iter()
            .all(|c| !c.to_str().unwrap().starts_with("pilotdesk_lang=")),
        "{cookies:?}"
    );
    app.choose_language(&first, "de").await;

    // Another browser that asks for English and once chose English before signing in.
    let second = client();
    second
        .post(app.url("/language"))
        .form(&[("lang", "en"), ("back", "/login")])
        .send()
        .await
        .unwrap();
    let html = second
        .get(app.url("/login"))
        .header("accept-language", "en-GB")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        html.contains("<html lang=\"en\""),
        "anonymous: this browser's choice"
    );
    app.login(&second, crate::helpers::ADMIN, &app.admin_password)
        .await;
    let html = second
        .get(app.url("/"))
        .header("accept-language", "en-GB")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        html.contains("<html lang=\"de\"") && html.contains("Abmelden"),
        "signed in: the account's choice"
    );

    // Switching back while signed in changes the account's setting too.
    app.choose_language(&second, "en").await;
    let third = client();
    app.login(&third, crate::helpers::ADMIN, &app.admin_password)
        .await;
    let html = app.page(&third, "/").await;
    assert!(html.contains("<html lang=\"en\"") && html.contains("Sign out"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_german_viewer_reads_the_frame_the_pilots_list_the_pilot_and_not_found_in_german() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    app.choose_language(&admin, "de").await;

    let html = app.page(&admin, "/").await;
    assert!(html.contains("<html lang=\"de\""));
    for german in [
        "Piloten",
        "Dimensionierung",
        "Abmelden",
        "Zum Inhalt springen",
        "Die Piloten aller Kunden",
        "Pilot-Hardware",
        "Berichterstellung",
        "Geändert",
    ] {
        assert!(
            html.contains(german),
            "`{german}` missing from the German pilots list"
        );
    }
    assert!(
        html.contains("Support assistant: Qwen2.5-7B on 4× V100"),
        "names stay"
    );
    assert_eq!(
        english_left(&html, ENGLISH_OF_THE_FRAME),
        Vec::<String>::new(),
        "English left on /"
    );

    // The pilot page: its fixed words in German; the pilot's own names and figures as they are.
    let html = app.page(&admin, "/pilots/1").await;
    for german in [
        "Pilot für",
        "Lasttests",
        "Nachweise",
        "Kalibrierung",
        "Ergebnis",
        "Zielwert",
        "Gemessen bei",
        "Hardware-Empfehlung für die Produktion",
        // The verdict worded in German, as the German report words it.
        "Zielwerte verfehlt: 0 von 2 Zielwerten erreicht, 1 verfehlt, 1 nicht vergleichbar",
        "99 % der Anfragen erhalten ihr erstes Token innerhalb von 450 ms",
        "Nicht vergleichbar",
        // The reason at a glance, the sample-size argument behind "Einzelheiten".
        "Nicht vergleichbar: keiner der 21 TPOT-Werte ist p99 TPOT am Client.<",
        "<summary>Einzelheiten",
        "Den Lasttest auf der Produktionsumgebung wiederholen",
        "Pilotplan",
    ] {
        assert!(
            html.contains(german),
            "`{german}` missing from the German pilot page"
        );
    }
    for english in [
        ">Load tests<",
        ">Evidence<",
        ">Production recommendation<",
        ">Pass mark<",
        ">Measured at<",
        "Size this pilot",
        "pass marks met",
        "Re-run the load test",
        ">Pilot plan<",
    ] {
        assert!(
            !html.contains(english),
            "`{english}` left on the German pilot page"
        );
    }
    assert_eq!(
        english_left(&html, ENGLISH_OF_THE_FRAME),
        Vec::<String>::new(),
        "English left on the pilot page's frame"
    );

    // The plan page: the marks as the German report words them, the plan's facts in German.
    let html = app.page(&admin, "/pilots/1/plan").await;
    for german in [
        "Pilotplan",
        "Zielwerte · Version 1",
        "In Kraft",
        ">Freigegeben<",
        "freigegeben von",
        "99 % der Anfragen erhalten ihr erstes Token innerhalb von 450 ms",
        "Geltungsbereich",
        "Lastannahmen",
        "Spitzen-Ankunftsrate",
        "Pilot-Hardware und Serving",
    ] {
        assert!(
            html.contains(german),
            "`{german}` missing from the German plan page"
        );
    }
    for english in [
        ">Pass mark<",
        ">In force<",
        ">Approved<",
        "Demand assumptions",
        ">Scenarios<",
        "not stated",
        "approved by",
        "pass marks met",
    ] {
        assert!(
            !html.contains(english),
            "`{english}` left on the German plan page"
        );
    }

    // The plan's history: its fixed words and the first version's marks in German.
    let html = app.page(&admin, "/pilots/1/plan/history").await;
    for german in [
        "Planverlauf",
        "Erste Version",
        "Geschrieben von",
        "Freigegeben von",
        "Diese Version zeigen",
        "99 % der Anfragen erhalten ihr erstes Token innerhalb von 450 ms",
    ] {
        assert!(
            html.contains(german),
            "`{german}` missing from the German plan history"
        );
    }
    for english in [
        "Plan history",
        "First version",
        "Written by",
        "View this version",
    ] {
        assert!(
            !html.contains(english),
            "`{english}` left on the German plan history"
        );
    }

    // The report page: in German, its preview and PDF in German unless the address asks.
    let html = app.page(&admin, "/pilots/1/report").await;
    for german in [
        "Pilotbericht",
        "Druckansicht öffnen (HTML)",
        "Freigabelinks",
        "Exporte",
        "/pilots/1/report.html?lang=de",
    ] {
        assert!(
            html.contains(german),
            "`{german}` missing from the German report page"
        );
    }
    assert!(!html.contains("Share links") && !html.contains("Open print view"));
    let html = app.page(&admin, "/pilots/1/report?lang=en").await;
    assert!(
        html.contains("/pilots/1/report.html?lang=en"),
        "the address wins"
    );

    // The account page: in German, with the language chosen in its own card.
    let html = app.page(&admin, "/account").await;
    for german in [
        "Ihr Konto",
        "Angemeldet als",
        "Sprache der Oberfläche",
        "Passwort ändern",
        "API-Tokens",
        "Token anlegen",
    ] {
        assert!(
            html.contains(german),
            "`{german}` missing from the German account page"
        );
    }
    assert!(
        html.contains(r#"<option value="de" lang="de" selected"#),
        "German is the chosen language"
    );
    assert!(!html.contains("Change password") && !html.contains("API tokens"));

    let missing = admin.get(app.url("/no-such-page")).send().await.unwrap();
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    let html = missing.text().await.unwrap();
    assert!(html.contains("Nicht gefunden") && html.contains("Zurück zu Ihren Piloten"));
    assert_eq!(
        english_left(&html, ENGLISH_OF_THE_FRAME),
        Vec::<String>::new(),
        "English left on the 404 page"
    );
    // A pilot that does not exist: the error notice's message in German too.
    let missing = admin.get(app.url("/pilots/999")).send().await.unwrap();
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    let html = missing.text().await.unwrap();
    let notice = &html[html.find("notice-error").expect("an error notice")..];
    let notice = &notice[..notice.find("</div>").unwrap_or(notice.len())];
    assert!(
        notice.contains("Seite nicht gefunden.") && !notice.contains("Page not found."),
        "the notice's message: {notice}"
    );

    // Switching back restores English for the same session.
    app.choose_language(&admin, "en").await;
    let html = app.page(&admin, "/").await;
    assert!(html.contains("<html lang=\"en\"") && html.contains("Sign out"));
}
