// A person's data on request (issue 23): what the download asks for and how it fails, shared by its machine and its ui.

/** The file asked for: the JSON document or the French HTML summary. */
export type PersonalDataFormat = 'json' | 'html';

/** Why a download failed: the HTTP status (0: the network) and the server's French message. */
export interface PersonalDataFailure {
  status: number;
  message: string | null;
}
