import { broadcastResponseToMainFrame } from '@azure/msal-browser/redirect-bridge';

// The page every sign-in answer comes back to (MSAL v5): it hands the answer to the
// waiting frame (silent renewals) or to the page that started the redirect.
void broadcastResponseToMainFrame();
