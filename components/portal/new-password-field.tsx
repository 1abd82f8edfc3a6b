/** A new password's field with the rules under it, as sign-up, reset, invitation and Seguridad ask for one. */
export function NewPasswordField({ name, label, hint, hintId }: { name: string; label: string; hint: string; hintId: string }) {
  return (
    <>
      <label>
        {label}
        <input name={name} type="password" autoComplete="new-password" required aria-describedby={hintId} />
      </label>
      <p id={hintId} className="hint">
        {hint}
      </p>
    </>
  );
}
