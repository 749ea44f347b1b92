-- The interface language a user chose (issue #37). Keep in step with ../postgres/.
--
-- The language switch remembers the choice in a cookie (so it holds before signing in); a
-- signed-in user's choice is also kept here, and signing in on another browser sets that
-- browser's cookie from it. NULL: never chosen, the browser's Accept-Language decides.
ALTER TABLE users ADD COLUMN language TEXT;
