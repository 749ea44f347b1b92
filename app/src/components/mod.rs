//! Widgets shared by the pages: the page frame, status badges, notices and empty states.

pub mod action_forms;
pub mod fragment;
pub mod frame;
pub mod i18n;
pub mod notice;
pub mod page_data;
#[cfg(feature = "ssr")]
pub mod pager;
pub mod text;
pub mod upload;

pub use fragment::{
    Fragment, fragment_or_error, fragment_view, pilot_fragment_with_editor,
    refreshing_fragment_view,
};
pub use frame::{CurrentUser, Frame, PageHeader};
pub use i18n::{LanguageSwitch, lang, tr};
pub use notice::{ActionResult, EmptyState, ErrorNotice, Explanation, StatusBadge};
pub use page_data::{PageResource, page_resource};
pub use text::textarea_text;
