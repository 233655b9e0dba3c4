/** Who is calling: the player behind the bearer token, and which token it was. */
export interface AuthenticatedPlayer {
  id: string;
  name: string;
  tokenId: string;
}
