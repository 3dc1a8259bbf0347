-- Every change an administrator makes (user status, mark-paid): who, what, which object, when,
-- and the object's state before and after. Rows are only ever inserted.
CREATE TABLE admin_audit (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    admin_id    uuid NOT NULL REFERENCES users (id),
    action      text NOT NULL,
    object_type text NOT NULL,
    object_id   text NOT NULL,
    before      jsonb,
    after       jsonb,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX admin_audit_object ON admin_audit (object_type, object_id, created_at DESC);
CREATE INDEX admin_audit_admin ON admin_audit (admin_id, created_at DESC);
