// The account page: the shell, and the sign-in pages' landing-page script (who, passkeys).
import './shell.js';
import '/auth/assets/home.js';
