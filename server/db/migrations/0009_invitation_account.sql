-- Issue 19: a request records which portal account held the invitee's address when it was made (null: none),
-- so that an approval gives the role to that account (or to a new one) and never to whoever holds the address
-- by then (an account renamed to it in between). The approval compares; a difference answers 409.
ALTER TABLE invitations ADD COLUMN invitee_user_id uuid NULL;

-- Recorded by the database on every insert, whatever writes it (the API, the demo seed, the benchmark, tests).
-- No foreign key: a holder deleted afterwards stays recorded, and the approval then sees the change.
CREATE FUNCTION record_invitee_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.invitee_user_id := (SELECT id FROM users WHERE lower(email) = lower(NEW.invitee_email));
  RETURN NEW;
END $$;

CREATE TRIGGER invitations_record_invitee_account BEFORE INSERT ON invitations
  FOR EACH ROW EXECUTE FUNCTION record_invitee_account();

-- Requests still pending: their holder as it is now (what it was when they were made is not known).
UPDATE invitations SET invitee_user_id = (SELECT id FROM users WHERE lower(users.email) = lower(invitations.invitee_email))
  WHERE status = 'PENDING';
