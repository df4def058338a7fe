/*
 * Cairn secret-scanner evasion corpus, round three (issue 29, "What to build" point 5).
 *
 * Written without reading the scanner: only docs/hardening.md, the interface spec and the issue text.
 * Every value below was generated at random for this file (node:crypto); none is a documentation example.
 * Checksums hold where the format has one: Luhn for cards, CRC32/base62 for ghp_/gho_/npm_ tokens,
 * bech32 for the age key, HMAC for the PuTTY key and the JWTs; PEM/OpenSSH bodies are real generated keys.
 * Non-ASCII characters are written as \u escapes so look-alikes and invisible characters are visible here.
 *
 * EVASIONS_V3: each text holds exactly one secret, hidden by the technique named in `note`; all must be refused.
 * SUPPORT_TEXTS_V3: ordinary support texts (near misses); none may be flagged.
 *
 * Families: armor-label 16, encoded 13, aws-id 12, escaped 9, cli-password 15, url-credentials 11, prose-password 20, split-token 11, provider-token 25, card-number 11, personal-data 2.
 */

export interface EvasionCase {
  id: string;
  family: string;
  text: string;
  note: string;
}

export interface SupportText {
  id: string;
  text: string;
}

export const EVASIONS_V3: EvasionCase[] = [
  {
    id: 'v3-armor-label-cert-wraps-aws-pair',
    family: 'armor-label',
    note: 'CERTIFICATE armor label around an AWS credentials file (key pair), body is not a certificate',
    text: 'Here is the cert for the S3 uploader, paste it into the vault as-is:\n\n-----BEGIN CERTIFICATE-----\n[default]\naws_access_key_id = AKIACZ3COLYS5CMUUBP5\naws_secret_access_key = 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\nregion = eu-central-1\n-----END CERTIFICATE-----\n',
  },
  {
    id: 'v3-armor-label-cert-wraps-dotenv',
    family: 'armor-label',
    note: 'CERTIFICATE label wrapping a .env file with a live Stripe secret key',
    text: 'Billing worker env (from the old wiki page "TLS material"):\n-----BEGIN CERTIFICATE-----\nNODE_ENV=production\nPORT=8080\nLOG_LEVEL=info\nSTRIPE_SECRET_KEY=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\nFEATURE_FLAGS=checkout_v2,invoices\n-----END CERTIFICATE-----',
  },
  {
    id: 'v3-armor-label-rsa-private-key-file-label',
    family: 'armor-label',
    note: 'real PKCS#1 RSA key under the made-up label "RSA PRIVATE KEY FILE"',
    text: 'Runbook: restore the SFTP host key\n\n1. Copy the block below to /etc/ssh/ssh_host_rsa_key\n2. chmod 600\n\n-----BEGIN RSA PRIVATE KEY FILE-----\nMIIEowIBAAKCAQEAzLsv9+6v3+ANXPcrWooNBGdgtxHITT0pjlNJ4iRKWckp9vzS\n8MVngdt/kjQ32Ap6Bj/XW82FoMOgmrPurTEbe1jwLu9cuX3elCnJEPLKvLKBJ/UF\niRZoSv1fqtgx60cm5d6vuMPKByzfsC+tYM8lPMxvH8mXFnoZe/0uq9mQvsLJlASE\n3oDNRaZtqBpdIJ6CL5OdxTHq3JOHo99X06+3mkmzeKEZGiMXTOgUmFvK/rx44oHH\nQ32rrp9ZVinu0RgTroTbsWGvULXkW/8pe6+v0npvZNax25cpX5gd5Rx3bGywwke8\ntglhWq4afnVz9dYZHSuYuGDefCocY/E4KEQMOwIDAQABAoIBACHfWolfwVN+A1f9\nQPwC2TKAVB0V4Rj+ZJC6sP+sV2zRfpLxs4jIcF6ozUuIPjENUrEUAPKcZ15432qZ\nGIUpGc3noh1x1tqNu7Sx0SVvtiFQO1Q8EsViorC9iQWALYoqxIHFvTcJlbRoNT42\nNS5ON2/+tugAd3Htk6fS9NTT80HMNr1hIKBW5sOnM79U6AVvhJRmNFmDT4MN2qIb\nF1Tl4PzK66JlbMrfGxMvmk4MasTNKlhlARSwd0TqkqS1bRxQygrCbAvfrmPkfrvn\njF7TPp0zAMjKr8ZgqMMEbhC+k2BH5n5r8h6VI59JK6ygMgj7ssge6JiJXR/k4Z3k\n8zJEhJkCgYEA6jj0L79bnXt57xkTQNl3J9CG6cnqzoUr3JSNIvt+NZjypT/eFqBZ\nPYLLauYt+PFcqloLA/AoCMisob5VaWIZc2aGx/2xwdyx+FtxcpMhKBAcmRBTjnTg\nw+J56pQBBnDk2sBvIoinXRlKsuq5HhcyEkOoEXc+aQHSJSAsCeZ8fE0CgYEA38RF\nkn7w44RueVoaXh4JWD+VPm9+JPNKiozcRACPnmpbslNGKDh8h70oaK7hVFNOx9yl\n2mZBr+XtoLt0n3UisXrQLy02eRdNf5/LWll9tbeD33LEzp4FD4iQbBgTGrFFhYmp\njxeDocr9k69QnMPxx3AyvhzlCNHpb9I3waWtzqcCgYAwYFMPCZcCj94/ZA519nSF\n5Kv43ZuBzD+i74u3DfqjV1PGjcpxIe1MpxccnS4hnLhm9vIPfirGpawCPC2n9nsL\nOsHbzKpKQCsCAOENqRXQEIPXmWeopLtHuh80NB2CFw8tn1FU8KSgtfiXu6NAc8oD\nu7Wa5eYeCiI9SMfPw6sygQKBgQCfrCFtCNIBt+VRCL+Z+1r1suFfXRWpbkX5mcwv\nZisVgpWOKSf92VjbT1o/YNL/ZjboHQXoU2F6D9tB/6GXi3FHLfjSQTQGsl8lu7PS\n89rlSV97mhzfxxibXfqYd5FiUa7nPDVXGxNd50iNEuO2CYhEpUZALMQuSAOIPHx2\n3S+qLwKBgCWLWBp3urTcb2JmDpQ8QEhayhezSi+dk/FoTVoVn2akdunrepBwaYR1\nbxxx+ENVqFE+CX0PeOCGf8DJ4xNw9yp/Yys925j84XOpoLQCzf9kR0lIfKPyWaTV\nC6QIE0dlzdak/miaMqEIk4ENDclofBVshK+zhfPUOqfyu6+PtvAS\n-----END RSA PRIVATE KEY FILE-----\n',
  },
  {
    id: 'v3-armor-label-two-spaces-in-label',
    family: 'armor-label',
    note: 'real RSA key, armor label with two spaces between RSA and PRIVATE',
    text: 'key for the jump host (do not lose):\n-----BEGIN RSA  PRIVATE KEY-----\nMIIEogIBAAKCAQEAsT4IzrBbbpUl4kCLiy0AQtmhCa8ccZvJ9wqgueSof35cpu4X\nAd2DMQsf4TrGgzrDOd1+JxZepcrFGiag8wCnZ03U3EI7xae8HAgrBqsxDDq6pnqp\nmG+i9acKyK4KFNE7nxbbPpl2E/A6F8t7+v3D72KdxyHyN2BhZwCIUmG5Ktur0BWD\nKlr4uZ4TEtYYjJ7ZMdQtu/n+FnqoY5iOHHCKiE/UejZvk+7++7Zo71xBITj7FaIh\nHguWDQVjcJamnumnLAX2mp2y4/jIhopGuG0EE5vPRPkcvvBspkXFjE9KgZgoezg9\nKYJmNt6AmQAiLWu1ZZxCk7j43InHZL702kE/dwIDAQABAoIBAE53RaPnPFsc6Wwc\nIgrnzb1KpnnojaGYFBXrnRMe8R+cO/1k20emnr1YDPGDuT2Ahsw3y/EW/KjON2sn\n3comqHXZ5ZnrMpYC94q7bPzjTe/5kgdAt5M2HQE+xc3pCqqDpK7+CerROo6CI93D\n5mvL63GviWUOmLI+V3CnsjIydCzN3LrFp20Mf7+FnOkPcOrGacDLCly8LggYPT5A\nJy5VFm7g8MVPywy3krNi9UvMVNoik5nY9zD/zl/LKWs9QcduhPZhwBlXTkRlMCHi\nWJjEwiTqTfKKQ+swkN7NCpUO4JRej9z2sj4y4LL1BLJKU7F9M6R9+y+Fu+/T+Hui\nn6JjNE0CgYEA7OgV6Txx+KDmn7eZumBuf0YjSIJ3y0Rjz7wU59urxh+rDbGhCitI\nTCXtEyCQwwi5fJVAGuF/llJtIa7EkWjbEsp56ea8lvpsSRkBa5PL0dnYgUeIcpR5\nWbkZMCWs0H9/Q5d0y0fALdCxYS5r9s7iLpnfSGXDqJdxEsZI6FNSJfsCgYEAv4bw\n8rofFM4ZAOszdNMyXx/sZAiC7bMTpRKH3h5157CS4rUmOLV+ZwhvrZ8HIi+sa9Tp\nR3Sf3/xMaIqlV97xzGFPtd632XhAV5JTA+yX0U6YeOeEK1wSJEHHY13TJUvUUyXN\nYNX5TmJgNrZFUqzTD2z7VMrOHHd6uQsD9F5JH7UCgYBuVDOIGH9Xc8+TyFSOiMRM\n/6QE68XQYzw8jXIK/LHFpg/qY7QE4V1dITiEdOEWA2Um0Pc2zZe2sRJj4llnArcr\nzCH0vWFMyrlNXZjcucrtIxACPQcdnWnaUCqb0p/lxcrF9q4M0ZB9hbhl8tGS8oxB\neaWTuNjjFgwx2ygvEkaqqwKBgDgGnkcywNLSMyg8pTHAchS3fuwIPVyRLOb1077b\nBDyBP4aH3SVrmg1Dv393bJvIfFSS1Kata/MWl7dhD1r0AaF6udmGzBsWfSPgzt3w\nAL0ek6WSe+w/I6Nthoj/sjtPwk2MWlbAYQxX5LM8gGzd12PEyoSUStSy8rhci4yZ\nZCSdAoGAI33BWFUsbUV4FWQkvZ83MqKpr9UX8G7N5zWzu9HZdozwyob53VG46nMl\nGrPE2cPKh+lEhk71+p2aIC0lViNw3SBayxa5IFzToLO1L7M7zmNkFcgd0DAV4mmk\nz6R0IkrGTiw4M0wYbUiSuN22YmGsJOfc7fYeVHBGU5fsxZq5AZk=\n-----END RSA  PRIVATE KEY-----\n',
  },
  {
    id: 'v3-armor-label-lowercase-label',
    family: 'armor-label',
    note: 'real PKCS#8 EC key with lowercase armor label',
    text: 'signing key for the webhook verifier:\n-----begin private key-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgY2mTRYM5CkektEcF\nnlE6IoZ95Vh1DoyuA074+J+8dnKhRANCAAR2L5cDCWkkPojHEulceK0MSonqy4cp\nU7nGwIz1fEip4KedTt4relbcSuVPoNzthGiQ4l31tz1tjYL4mo/LNH3g\n-----end private key-----\n',
  },
  {
    id: 'v3-armor-label-one-line-body-over-512',
    family: 'armor-label',
    note: 'RSA PKCS#8 key whose base64 body is one single line of ~1600 chars',
    text: 'The ops bot wants the key as three lines, header / body / footer, so here it is:\n-----BEGIN PRIVATE KEY-----\nMIIEvAIBADANBgkqhkiG9w0BAQEFAASCBKYwggSiAgEAAoIBAQDXllRNW39rxqcsO4NAFBlTmxXv/dZDIQEJ3ICdPFVX9BLpfxexuzD00Ujt8qtgDysjYLuysJfm3jrL2tqio94eTkwmMuIwejYRXIiho5VZni9ywUNyWgS4thl6AimbAcNBwqMjtBbnRDGXzTCWGKRIKfpOWNDfz3v2EvnR/3/nTmpttgCizkJwSn7Ji58TX48r55gsrRcVLVUvim2W6/6dGM8KfZ4fdWnMDEsGAMkKVlHmXRy7L7XLb+KYau77LeW0y9nBaupLV28b/zfbG92l9rA+detIQ5ftMiGEd6p86+tvN4GgNbQysqZ7CPPDyZAcSmr0hm+cDPx9pKPe4hY9AgMBAAECggEAT55dwPn/K4MAn1XVSbeCiP14ExtoY39PXmB4gVlUXXiu+VvuGL38vRWDvRkHkKDZeiXR/BK67tD43uuTHkitkfyxo9Pb9DJWQIAvl56N3DyO4m8cpSE4qCzcaNJeojf68BDdZiSu5rcpJ5pojK5KEbqrDf9AGMAMVFs6twMIrhf6sSFuwc5JGp9ftZY8eLr4hQg++E/4qRKyaZ8syLFA2GWtYS6E1yrXNz+4tPGhL1kVfY6ycbPyCu2QGG92lahkUEMV6EUhWm1TNEOUclumynBztYxgFUhScvrOLj5q6vP8ZzBMn5MeL1vzV8St8pOpuJd2Q7bgpXEtb8c2/QPRYwKBgQDrD/jkcCXJSgSBNEd3HMM6uvzM/U2zFGF/953Y5IH1e7qjn/TOOFbOEYyjITmxN5PW6/hzgPvWb0mPdl00Wss6NUj5PwIB1V35Y2+6Y/V/G/NhK6UbuAxEA4wWiluY5BzQ1mwciVsS3aGfr3WLHm7L26n27IkrPq8uwOlmikf4dwKBgQDqykXp/eDlqOTikz3HDq86cAKQwHvxiILQmSWXfvZKlZvQikr6lZGxQct3gevye0I90LEEKf1Bcmsd/+OsuiFLPD975GDyk73R9OIhkWaiKtloFosMhalK1Z5PNWXbeyxeMqJ0D/SNOGwv+svooqE7jCvCSHx7sd+CrvVk8FhH6wKBgEd529zanSLP9v6yvuhhPpwlL6nFfFLv55XZ3Y2OLlZPATmv8eijCQIwI+uWtsxEchfwOOQmXG2f+WY+P6kj0pgoi7/+gMW9841ZxyeOLaAxB5iMhPAgztn/miFggOnEs15tVQJ4YdEiw3qjB8L9xgMHEG+dDTixHuPAlTgw5CGRAoGAZCLWxKBJvclVrSidLXue0m6ZOYFOm0ncePkIJl+4zUCXjs6cgdkupQnprFOV/PoC23hZNuxtne8drlLHmJBdyMeuT7mse2j1iUlG9Igd3MYnqRQMQ8/xzv/in+enRH95AcfYr2VqqJxKz//H3bUWzN3Qf/EIXn0TVZonAODc1fcCgYAYn3hBZqEyQaxr7BHjksCNS0ogy2/M5rUAwEeYPs93kNpYTlPEvTtGt2Eu0XbVeTxcjS8FGnzlSCtFaAybpKyXMlyVSpCxom9kgUfkGlR73e6VPIrpAVhCj+9G/NnvCAFRRiNz9SJlxz9/WmtpRbgQDvh3xpyDCOfUpFK8yeXWHw==\n-----END PRIVATE KEY-----\n',
  },
  {
    id: 'v3-armor-label-no-line-breaks-json',
    family: 'armor-label',
    note: 'whole PEM key on one line without any line break, inside a JSON config paste',
    text: '{"service":"sftp-bridge","user":"bridge","privateKey":"-----BEGIN RSA PRIVATE KEY-----MIIEowIBAAKCAQEAiH1eSQw+C5ywgwDL+wLHNFFpr/Edp0ulzdIjWO7SdHDe69NN6z0/6XnwoB7UAhL+YlMaCDXQEB01/R89eZoZMHl1a2wsPTpuGiDF7gK411MAX3yvNR31L8CARZLb+mso7JjoM+wnJNKr3zV8B6T4pkLxs/D4MQd14tYewNLdRO0KcK0hJu1yKnq7pl/bWgiMBIYywRhwxQsw7SF96jskp0FS4cCVbMlEvpU4wYtQlnX8pcNe7BuFo5LBsAk7P0Tj4N2RA9vrv/2MHJ5Z+dwsjmlLgPs9S/ggNqRO2xnWdTG2uiV1dxe2BqzSczxIx+dgTvoTZprYI4K4ABdouy7cCQIDAQABAoIBAAXa9v4EP+8omCvuj1Gj417btUB+hAqmxKSpRKnuiOnE49NTG88hMAo4mHmOCQNTxET8kqvSfywJzMSgn/cFBNqfA0oJ+HXh+VI2oLcet8ZJAcWW6D9Lmzait/4EGFrMWROZVbDQizdZsFThiwIa8i3TxmG1TzhvPP/vtp8IDMUFpDc8PyLtJ7PTLTMoc+g22jhjHiPDvmFlfrCHugQsp5cHyThosGP85WvYvPBWds6oyKKukfW3AgFvyQ/r4zpC6I4YdkIKVPRuAyZjAk5yMoezYooRU8mDz6OJ4NGXE+/TEXmSs9ouoCT5X2ZMbn/gr6peHnx2bF4EYW6fCT/HMucCgYEAwAKsVzEkHojnCLswSsR+9DM4txOvWZXq+qif3UYtOAXLmr7EBWI9F2Ept+v19tVRkUvyksB0GiGkfiy+MEMi/Hf4tlbhdU0uWgsznlCOdJfsufemSl5AVyEAs1rTI2W7zie0XOkQuPmqiVlVDwJ+TwN/J0MDAu9Tf/fTaNPa2I8CgYEAtfn1GZ37trNMT1HtUQ7vZeXZqMKXYOzww8OgTwT3aOdDtR02fdwVZ54lLuDWZVpJreo1oKp++Lz/p77BoMGSaypWgPDxREDqGE8L4dE7DfkiigddEOZhCr+i8ACsLWawv35ZHB3N9WSlvXQQCVjyjlp6b1ddqhhMlq7xpw0e3ecCgYA10goAvrODI5iu59lXe9CiHqFtH8Vs9QrSi+WTnpIaO/WgQIytfaXmIcQR28AsGgstEP7Dh9KDaJ61B1GgMZFi9zXt1liICsRNVQp4+9eScutWDUa9XcHnKkcJ/xFjwKZt2M9Do8ieMM1Oho3DEU3aU/6WQMBdWDwtiIfnwEp9nQKBgQCnT1RxJBaNCNaNSxb1YtTqi+SNy7Ngcxh99LvMSxWqBo7y0xQJrbKkXPt02VVlRBjf5Kk/ueIZkbNAKBtgUPjsvLVhwaUhislwZiTXjwZLt5Zw74o6goYQWtdU8FldOMAin+kP97sn9kyIHlCsN3JzPW66NcoxHDw2gkw9uct6WwKBgF6J0Um3brEXQOjryTatTP3rAldE+dA1dwz+xLLTiUTLinNY/E0R4aGG8c0r3cW9BncJAz/5BhcbWwhjpku9mJ3uJiBZzMnSyzgyD5gjZVJl6Y5sSgw/zXG9jHxKXfx2PoCpx61me5luFPfzd2/kT4P7VgOkmfmPTeYtYeMGSJq3-----END RSA PRIVATE KEY-----","port":22}',
  },
  {
    id: 'v3-armor-label-crlf-line-endings',
    family: 'armor-label',
    note: 'EC private key with CRLF line endings throughout',
    text: 'From the Windows share (\\\\fs01\\ops\\keys\\gateway.key):\r\n-----BEGIN EC PRIVATE KEY-----\r\nMHcCAQEEIBBXQfEfBqgaZVYmGfO05ETMzimfBoOZSAqhNEQFdG6UoAoGCCqGSM49\r\nAwEHoUQDQgAETLqE6k3IDnwxLWRfsoStxOY8uLLleF8m2pPCjBipgVoPGw9GSdiK\r\noB5a0UODjXT8nCibbBCUQrR8LXLY6wacSA==\r\n-----END EC PRIVATE KEY-----\r\n',
  },
  {
    id: 'v3-armor-label-public-label-private-body',
    family: 'armor-label',
    note: 'PUBLIC KEY label, but the body is a SEC1 EC private key (misleading label)',
    text: 'public key for the partner portal (they asked for the PEM):\n-----BEGIN PUBLIC KEY-----\nMHcCAQEEIKTZZAI1WOxvLLvMh9B5OaYkYFzC3DiTIrnT+r/vzd8SoAoGCCqGSM49\nAwEHoUQDQgAEIhqSiirUqh4jFbbjMkQ+A7ScKtATrRimTdTKmf1GxbyO3ykBmRVa\nyFbF3D9Np1Qex1L8IrfKoEPZg7ncOaKBdw==\n-----END PUBLIC KEY-----',
  },
  {
    id: 'v3-armor-label-four-dash-openssh',
    family: 'armor-label',
    note: 'real OpenSSH ed25519 key, armor lines with four dashes instead of five',
    text: 'deploy key used by the build agents:\n----BEGIN OPENSSH PRIVATE KEY----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACB5YNHGtG823ksLv5hA/AJdbx5zVAkNnSn0l5/vXtGaTgAAAJhoflTWaH5U\n1gAAAAtzc2gtZWQyNTUxOQAAACB5YNHGtG823ksLv5hA/AJdbx5zVAkNnSn0l5/vXtGaTg\nAAAED5eFq18mwI9UU0zQsZRFogB4SxwjCEWfPW6iXupAlnhnlg0ca0bzbeSwu/mED8Al1v\nHnNUCQ2dKfSXn+9e0ZpOAAAAD2RlcGxveUBidWlsZC0wMwECAwQFBg==\n----END OPENSSH PRIVATE KEY----\n',
  },
  {
    id: 'v3-armor-label-pgp-message-wraps-base64-env',
    family: 'armor-label',
    note: 'PGP MESSAGE armor whose body is just base64 of a .env file with a GitHub PAT',
    text: 'Encrypted the env for you (ha):\n-----BEGIN PGP MESSAGE-----\nVersion: GnuPG v2\n\nREJfSE9TVD1wZy1wcm9kLTIuaW50ZXJuYWwKREJfVVNFUj1hcHAKR0lUSFVCX1RP\nS0VOPWdocF9tbnlUbFZRUkMwSkJNcEdvNGdjWlA2aHZUdFp4dnIydDJKV2kKQ0FD\nSEVfVFRMPTMwMAo=\n=Xq3f\n-----END PGP MESSAGE-----',
  },
  {
    id: 'v3-armor-label-markdown-blockquote-pem',
    family: 'armor-label',
    note: 'EC private key inside a markdown blockquote, every line prefixed with "> "',
    text: 'Quoting what Jens posted in #infra yesterday:\n\n> -----BEGIN EC PRIVATE KEY-----\n> MHcCAQEEIFaJxLJ6/XDJVoKYmAfDTzNmrVr2mGz8VWGbu2/NPrYXoAoGCCqGSM49\n> AwEHoUQDQgAEvaPZVNjfVWBZLtrNvfWXVmvnq4UqSqBIUOwH2NtjofRlr5ZQ4e9o\n> q8MH6ko+SphaAUxP80dtbMd2Wc1l/fNYWQ==\n> -----END EC PRIVATE KEY-----\n\nCan we rotate this?',
  },
  {
    id: 'v3-armor-label-diff-plus-prefix',
    family: 'armor-label',
    note: 'private key pasted as a git diff, each line prefixed with "+"',
    text: 'diff --git a/config/keys/jwt.pem b/config/keys/jwt.pem\nnew file mode 100644\nindex 0000000..3f2a9c1\n--- /dev/null\n+++ b/config/keys/jwt.pem\n@@ -0,0 +1,5 @@\n+-----BEGIN PRIVATE KEY-----\n+MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgiqNRChmkhj+l8k/D\n+By3A0wnrmeXDphavRmo+fFtR2mKhRANCAATGI2pXyj4eED5N+DmzYJjFwzaSZ8NY\n+xKXPQRIC2dObxlfFLy5gutij38iIscLRNA1vL4zYpW8kS7QwwFyHp2AQ\n+-----END PRIVATE KEY-----',
  },
  {
    id: 'v3-armor-label-line-number-gutter',
    family: 'armor-label',
    note: 'EC private key as printed by `cat -n`, every line has a line-number gutter',
    text: 'cat -n output from the box:\n     1\t-----BEGIN EC PRIVATE KEY-----\n     2\tMHcCAQEEIAEN49ZEk0BvM2lcX1YF/vzVBfquEeFJRoG9OrrzE3r6oAoGCCqGSM49\n     3\tAwEHoUQDQgAEBw1pSSrwk/i0K1jOfAmQE4ex8y3LvqOmAZkOYNo6PkyOjX/wNVbD\n     4\t3tmnSGBkTxBn6q3fbIj0LBcnzQAncHMp5A==\n     5\t-----END EC PRIVATE KEY-----',
  },
  {
    id: 'v3-armor-label-putty-ppk',
    family: 'armor-label',
    note: 'PuTTY .ppk private key file (no PEM armor at all), unencrypted, valid MAC',
    text: 'PuTTY key for the legacy FTP box (save as legacy-ftp.ppk):\n\nPuTTY-User-Key-File-2: ssh-ed25519\nEncryption: none\nComment: legacy-ftp-2024\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAIKcFbW9bY0M504j7E7kmNKDr4MEntt+j+RXwej/j\nZRUN\nPrivate-Lines: 1\nAAAAIAwZtTHFB+iCiqygyLXEJLqU6G66Q/b+obYOi4/SutJZ\nPrivate-MAC: 2476092de6487649650540fb5dcff00b6762514d',
  },
  {
    id: 'v3-armor-label-double-encoded-service-account-json',
    family: 'armor-label',
    note: 'GCP service-account JSON stored as a JSON string inside HCL, so the key newlines are \\\\n and quotes \\"',
    text: 'terraform.tfvars:\ngcp_credentials = "{\\"type\\":\\"service_account\\",\\"project_id\\":\\"support-tools-41873\\",\\"private_key_id\\":\\"333cfffccca7abee80605eb964273bd462cc700f\\",\\"private_key\\":\\"-----BEGIN PRIVATE KEY-----\\\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDHsOygow2vVf2S\\\\nj/nEER0qQLEuezgpJHbDj3vLHnhQ6i3NVjldEv/xT8fOyrexu3DuiSqbR+88TWP7\\\\naYFAwFaDBwqQtAlgwbS2XIz03uPYTW0imi5+navWWM+LIAefS1/dbhsv54eWbqwx\\\\nZ/K5TABMP6ZDr2Tm3YzmObRPsa4yb/NvIVmLrG8jdvJUPOY6/EBQEMvwh6h0Qxpp\\\\nMKh7haqUR31rHWnU2tnJBTTVCJhnWxTJSRh8MKjb+VQcriGT6h0QAKIvN1m8M6XK\\\\nw9TlzZAe7xj4D1gA7C0HY3o+8FgeoP2TV55z4cbfD+BxB3E4bYmZ5GXgggBakp0S\\\\nxDVP1WMXAgMBAAECggEACAaaXBJxmFxyZpOWzESL0YjsFhwps62dgFqh9RXya/4d\\\\nfSU8BPuggchdFXicTW5lKZElvzvy54+MtywUX8/bKkT8Lbiur87ZPoMVvzm+GpFy\\\\nE3Py7m/T2jeTj9nntIVJAxNL0G8Tyf4Eua+d18iwMmBUhF/mREkfQpmLH7DaeXho\\\\nNYzDRbR2QJiZlTtUKNbrSTYmg4W1CG/Z7vwnFA71Qbw64Jjlbc0QUsEXAgYgdzW6\\\\nEe2XQ8kKb8WmkLJJ4L2MifXUTkLEAFIsCPNNdaf2vVOPjUgJ384dr0e3A+HnXKu/\\\\nO5xziXAWI5fo0r/nn6/W8pjgsJieb5j3uKrNTb+PAQKBgQDru6LaKkldUQlFNyLv\\\\nk4zt7jc/2RmFdLPDBTijq5XI2Ajl4CC+FZS97Jlrij/16jT/+tqiiO9On6pkYZh7\\\\nP4C6Q71gHB5/Y0hweE/gUrrmRltmkl43LThzwk8dcooxqkraFpBvIS7ShQxBTtaw\\\\nCLuts9T1zhcTnLU2rpdb/4TXVwKBgQDY3AZ8B82YOx32aWeUq2l6aXxFXlud1UsT\\\\n2+TE1yAnpSm7z9HnjH4UGnxU8aWZORi9LIuAgea/0WPlltjAqmJDjNvSS/JXCNEg\\\\nagmWyiOJQkqGMNwrJPROzsJ/04B3ERgj8EVryU7jqnu1bF+Qb7LE61NYmlt35cVc\\\\n5vFe/pc6QQKBgD7la4gmLDj3vC95jJq7laiOHLOuaz7OaoAoTnps96QE8CrVaCcP\\\\nfwZFsJGe633jpYx/FAK14pPpyf7Kg3Ku+Nu54zdXiVOX2+YWU8mYiUGTmCN//h9e\\\\ns2c/evhybSjfNOWHi7X69pE46pIqROHnEpxAFRwYhtO2xir23m+vd3Q1AoGAQkZ0\\\\nIOHNnpGqpY0vH8uHL+cfGKAuxbzS9h3E+7d3V0Zty71GvEo+mexCRT+YyYwemGoN\\\\ntFd+6u6WZitE0RUBdP2OjOWzCZBjQVHG3nOmiqNc3Uf/cZwYoiEkZiaAY2MxCoK6\\\\n5KcgWgnXRun5Bs5sRyxYS4LZI3pwZ+UYrVyHYUECgYEAzZxblQjqwa3WSa56GCX1\\\\nZ8oSXeCMlHeoF+1gZ6unn3HbXILGkG5Vr36ehlcptEuyueim5BBlubEXYWeFaDRN\\\\nm0o+n2kzCr6vN3xIdcbQZ5M2axROZivVND4ArxiWRjK6Pfe1hBqpjSTPI2bP/gJ2\\\\nhesgsbZT4d0YCreFCVMwceU=\\\\n-----END PRIVATE KEY-----\\\\n\\",\\"client_email\\":\\"kb-sync@support-tools-41873.iam.gserviceaccount.com\\",\\"client_id\\":\\"810644159992612834898\\",\\"token_uri\\":\\"https://oauth2.googleapis.com/token\\"}"',
  },
  {
    id: 'v3-encoded-base64-bare-aws-id',
    family: 'encoded',
    note: 'base64 of a bare AWS access key id (28 chars, below a 32-char block minimum)',
    text: 'ticket 88213: customer says the access key id in their integration settings is QUtJQUlQUkNTMlFGUFdNM0Q3Rkg= (base64, their UI shows it that way)',
  },
  {
    id: 'v3-encoded-base64-short-password-assignment',
    family: 'encoded',
    note: 'base64 of a short "password=..." assignment',
    text: 'kiosk mode config blob: cGFzc3dvcmQ9Z1I4OU5ZaktfMnNl',
  },
  {
    id: 'v3-encoded-double-base64-github',
    family: 'encoded',
    note: 'GitHub PAT base64-encoded twice',
    text: 'CI variable GH_BOT (it is base64 of base64, decode twice): WjJod1gxZGFNbmh2WWtzM1RrSjNlVkpYUVdseFVrOWFlVUpJVVhWNFVFbG5iakZwYms0MGR3PT0=',
  },
  {
    id: 'v3-encoded-base64url-slack',
    family: 'encoded',
    note: 'base64url (no padding, - and _) of an env line holding a Slack bot token',
    text: 'state param from the OAuth redirect: ?state=U0xBQ0tfQk9UX1RPS0VOPXhveGItMjk3MjEwOTQ1NDItNjk2MDc1MDc3NTg0NC1sbHNpcFpDcUplT24xR2taSHEyZVR1Tmk',
  },
  {
    id: 'v3-encoded-hex-stripe',
    family: 'encoded',
    note: 'hex encoding of a live Stripe secret key',
    text: 'payload (hex) from the webhook log: 736b5f6c6976655f4d385174694343396448474443324d52423144634b6f3168',
  },
  {
    id: 'v3-encoded-hex-colon-aws-pair',
    family: 'encoded',
    note: 'AWS id:secret pair as colon-separated hex bytes',
    text: 'xxd of the secret blob, colon separated:\n41:4b:49:41:36:48:5a:50:32:37:4a:41:5a:54:4e:46:55:44:56:52:3a:56:76:57:51:53:51:2f:64:6b:78:69:6e:66:4b:53:58:47:76:36:6a:56:42:54:4f:31:37:79:6d:59:4a:4a:5a:74:52:44:41:78:73:72:6e',
  },
  {
    id: 'v3-encoded-basic-auth-header',
    family: 'encoded',
    note: 'HTTP Basic header; base64 of user:password is short (< 32 chars)',
    text: 'Working request from Postman:\nGET /api/v2/orders HTTP/1.1\nHost: erp.example-shop.com\nAuthorization: Basic c3ZjX2VycDpTZGclNGFfXzQw\nAccept: application/json',
  },
  {
    id: 'v3-encoded-docker-config-auth',
    family: 'encoded',
    note: 'docker config.json "auth" field (base64 user:password, short)',
    text: '~/.docker/config.json on the build host:\n{\n  "auths": {\n    "registry.example-shop.com": {\n      "auth": "Y2k6VkQwSFBUekojI2oz"\n    }\n  }\n}',
  },
  {
    id: 'v3-encoded-k8s-secret-data',
    family: 'encoded',
    note: 'Kubernetes Secret manifest with a base64 password value (short, no prefix)',
    text: 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: smtp-relay\ntype: Opaque\ndata:\n  username: cmVsYXk=\n  password: RzBKdE1iR1IjeislXw==',
  },
  {
    id: 'v3-encoded-gzip-base64-env',
    family: 'encoded',
    note: 'gzip-compressed then base64-encoded .env with a SendGrid key; base64 decodes to binary, not text',
    text: 'helm release payload (gzip+base64), in case someone needs to restore it:\nH4sIAAAAAAAAAwt29XNxD/J0iXcM8Iz3do20DXbXC8vV9Sv3dzQprjJzTw4PK6swMI4PMdezzK/ISPIMcE02ygwLSi2O8kwvMUrMcvINNS83TnU2K80LNMn2drM08Cvz4XIL8veNd3RxCXINDrYtLi0oyC8qcUitSMwtyEnVLc7IL9BLzs/lAgD6jordfQAAAA==',
  },
  {
    id: 'v3-encoded-base64-spaced-groups',
    family: 'encoded',
    note: 'base64 block split into space-separated groups of four',
    text: 'read it out in groups of four: R0lU TEFC X1RP S0VO PWds cGF0 LWVS MGE0 MnJK Yk12 NGdm U25O cnFP',
  },
  {
    id: 'v3-encoded-base32-github',
    family: 'encoded',
    note: 'base32 (RFC 4648) of a GitHub PAT',
    text: 'license blob from the customer email: M5UHAX3RPA4TIUCFLJUVIVLTJVZTM2TFNM3EEVBVGBCHQM3SLBTHUUZQIJSGQ2DD',
  },
  {
    id: 'v3-encoded-csharp-byte-array',
    family: 'encoded',
    note: 'password as a C# byte array of hex literals',
    text: '// legacy connector, do not ship\nprivate static readonly byte[] Pw = { 0x64, 0x64, 0x2B, 0x51, 0x59, 0x56, 0x66, 0x36, 0x23, 0x70, 0x6D, 0x4D };\nvar conn = new SqlConnection($"Server=sql01;User Id=sa;Password={Encoding.ASCII.GetString(Pw)}");',
  },
  {
    id: 'v3-aws-id-space-every-4',
    family: 'aws-id',
    note: 'AWS access key id with a space every four characters',
    text: 'The access key they read out on the call: AKIA 5G6F 3F6Z AKUD XQKN (secret was sent separately)',
  },
  {
    id: 'v3-aws-id-split-two-lines',
    family: 'aws-id',
    note: 'AWS key id split over two lines; first part letters only',
    text: 'access key id (wrapped by Outlook):\nAKIAHWISKV\nV5BVKRSM3Y\nplease update the uploader',
  },
  {
    id: 'v3-aws-id-lowercase',
    family: 'aws-id',
    note: 'AWS key id in lowercase',
    text: 'customer typed their key id in lowercase, that is why signing fails: akiafzkavnhhi4nqhrw6',
  },
  {
    id: 'v3-aws-id-cyrillic-lookalikes',
    family: 'aws-id',
    note: 'AKIA written with Cyrillic A/K/I (U+0410 U+041A U+0406 U+0410)',
    text: 'key id: \u0410\u041A\u0406\u04105IUXKIIUUOGPNQSJ - works from the CLI, fails in the console',
  },
  {
    id: 'v3-aws-id-greek-lookalikes',
    family: 'aws-id',
    note: 'AWS key id where every letter with a Greek look-alike is Greek (Alpha, Kappa, Iota, ...)',
    text: 'AWS_ACCESS_KEY_ID=\u0391\u039A\u0399\u0391\u03994V\u03A4\u03A7\u03975\u03A16\u03A7\u03A5\u03A1\u039C7VG',
  },
  {
    id: 'v3-aws-id-zero-width-joined',
    family: 'aws-id',
    note: 'AWS key id with a ZERO WIDTH SPACE between every character',
    text: 'id: A\u200BK\u200BI\u200BA\u200BE\u200BE\u200B2\u200BO\u200B4\u200BJ\u200BB\u200B5\u200BT\u200BE\u200BX\u200B6\u200B5\u200BT\u200BJ\u200BI',
  },
  {
    id: 'v3-aws-id-combining-grapheme-joiner',
    family: 'aws-id',
    note: 'AWS key id with U+034F COMBINING GRAPHEME JOINER (not a format char) every four characters',
    text: 'Zugangsschl\u00FCssel-ID: AKIA\u034FSV7Q\u034FPTCW\u034FAGQ4\u034F6UXF',
  },
  {
    id: 'v3-aws-id-hyphenated',
    family: 'aws-id',
    note: 'AWS key id with hyphens every four characters',
    text: 'Key ref (as shown in our password manager): AKIA-OLIH-AIN6-SEBX-OLXW',
  },
  {
    id: 'v3-aws-id-small-capitals',
    family: 'aws-id',
    note: 'AKIA written with Latin small capitals (U+1D00, U+1D0B, U+026A) which NFKC keeps',
    text: 'aws key id \u2192 \u1D00\u1D0B\u026A\u1D00RUXJPKX57R64R27U',
  },
  {
    id: 'v3-aws-id-unicode-line-separator',
    family: 'aws-id',
    note: 'AWS key id broken by U+2028 LINE SEPARATOR instead of \\n',
    text: 'access key: AKIANZUXFD\u2028NWBDFLVQN3',
  },
  {
    id: 'v3-aws-id-table-cells',
    family: 'aws-id',
    note: 'AWS key pair, id and secret each split across two markdown table cells',
    text: '| field | part 1 | part 2 |\n|---|---|---|\n| key id | AKIA26F2GF | N2VIOFKKQI |\n| secret | R8rjHuvKPT9dNVVtuhlC | JQIg60ospOadNbQYYlo8 |',
  },
  {
    id: 'v3-aws-id-dotted',
    family: 'aws-id',
    note: 'AWS key id with a dot between every character',
    text: 'the key id is A.K.I.A.H.V.5.A.O.M.J.M.S.L.A.R.I.4.W.4',
  },
  {
    id: 'v3-escaped-json-u-escaped-github',
    family: 'escaped',
    note: 'GitHub PAT fully \\u-escaped under a neutral JSON key "value"',
    text: '{"integration":"github","value":"\\u0067\\u0068\\u0070\\u005f\\u006e\\u006c\\u004a\\u0072\\u006f\\u0052\\u006a\\u0052\\u0051\\u004b\\u0071\\u004a\\u0052\\u0066\\u0035\\u0075\\u004f\\u0046\\u004c\\u0064\\u004b\\u0031\\u0052\\u0044\\u0067\\u0070\\u0059\\u0039\\u0042\\u0034\\u0031\\u0077\\u0074\\u0042\\u0055\\u0064"}',
  },
  {
    id: 'v3-escaped-json-partial-u-escape',
    family: 'escaped',
    note: 'Stripe live key with only its prefix \\u-escaped under key "note"',
    text: '{"note":"\\u0073\\u006b\\u005f\\u006c\\u0069\\u0076\\u0065\\u005f51G99X1OlGfNjxnca2mEFxYra11BaZvB5VP9keJW6T3iiF2Ju4JB2wSWYnGYKpQiL2R19Ugz2mCxYcJEICXyYaBny9ngAfZO3eY"}',
  },
  {
    id: 'v3-escaped-percent-encoded-all',
    family: 'escaped',
    note: 'Stripe secret key fully percent-encoded in a query parameter',
    text: 'redirect URL from the logs: https://pay.example-shop.com/return?ref=%73%6B%5F%6C%69%76%65%5F%33%6F%49%61%63%4A%49%57%77%48%78%78%4F%37%71%56%39%4F%61%6A%50%76%5A%42',
  },
  {
    id: 'v3-escaped-html-hex-entities',
    family: 'escaped',
    note: 'GitLab PAT written entirely as HTML hex character references',
    text: '<p>Runner registration token: <code>&#x67;&#x6c;&#x70;&#x61;&#x74;&#x2d;&#x47;&#x41;&#x45;&#x71;&#x69;&#x4a;&#x41;&#x30;&#x65;&#x6f;&#x6d;&#x63;&#x43;&#x44;&#x68;&#x6a;&#x6a;&#x76;&#x45;&#x51;</code></p>',
  },
  {
    id: 'v3-escaped-html-decimal-and-named',
    family: 'escaped',
    note: 'Slack user token with dashes and x letters as decimal HTML entities',
    text: '<td>slack user token</td><td>&#120;o&#120;p&#45;42315233615&#45;85263718066&#45;8348056471554&#45;56e76ef01079c9f3f9345082669a63be</td>',
  },
  {
    id: 'v3-escaped-js-hex-escapes',
    family: 'escaped',
    note: 'OpenAI key as a JS string of \\x hex escapes',
    text: 'const k = "\\x73\\x6b\\x2d\\x57\\x4c\\x30\\x33\\x31\\x51\\x6b\\x70\\x48\\x49\\x6d\\x6a\\x64\\x65\\x48\\x30\\x39\\x42\\x62\\x4d\\x54\\x33\\x42\\x6c\\x62\\x6b\\x46\\x4a\\x6e\\x70\\x43\\x33\\x56\\x55\\x57\\x6a\\x64\\x70\\x56\\x47\\x38\\x41\\x47\\x63\\x71\\x4a\\x66\\x52"; // obfuscated so the linter stops complaining',
  },
  {
    id: 'v3-escaped-quoted-printable-email',
    family: 'escaped',
    note: 'quoted-printable email body: "=3D" for "=", token broken by a soft line break "=\\n"',
    text: 'Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\nHi team, here is the new key for the newsletter service:\n\nSENDGRID_API_KEY=3DSG.99ehSlPIG9pSKwEQ1s=\ne_6J.yAw5mzgv0ERZN_gizHKHp64IhFmZPJ-Uo_8ChXpVMS1\n\nThanks=2C\nMarta',
  },
  {
    id: 'v3-escaped-yaml-double-quoted-escapes',
    family: 'escaped',
    note: 'Anthropic key in a YAML double-quoted scalar: prefix as \\x escapes, escaped line break in the middle',
    text: 'assistant:\n  provider: anthropic\n  key: "\\x73\\x6B\\x2Dant-api03-n9Tqlc5xmy4wSbeRYiZjBTdczqe\\\n    ckGAs8fMljwl4AgQkjpruos6L-Ge-aVh9cvutwIFZ1MahFMf31T1aWiyLVb5ZtRYUrAA"',
  },
  {
    id: 'v3-escaped-url-encoded-json-form',
    family: 'escaped',
    note: 'fine-grained GitHub PAT inside URL-encoded JSON, underscores percent-encoded',
    text: 'form body captured by the proxy: payload=%7B%22gh%22%3A%22github%5Fpat%5F11SK107S42C8UYK0E0MAX1%5F9lihFgutabZ5nwcXBxepJ0qXEsJ4T4OrWwgKZPts6ffXwV7WXYaYUz9xJTH%22%7D',
  },
  {
    id: 'v3-cli-password-docker-login-p',
    family: 'cli-password',
    note: 'docker login with -p password on the command line',
    text: "To pull the private images on a fresh node:\n```\ndocker login registry.example-shop.com -u deploy -p 'R9hQR*CJyTSgn#'\ndocker pull registry.example-shop.com/shop/api:2.14\n```",
  },
  {
    id: 'v3-cli-password-mysql-attached-p',
    family: 'cli-password',
    note: 'mysql -p with the password attached to the flag',
    text: 'quick check from the app server: mysql -h db01 -uroot -plQQqYNTwV6nZ -e "SHOW PROCESSLIST"',
  },
  {
    id: 'v3-cli-password-sshpass',
    family: 'cli-password',
    note: 'sshpass -p with a quoted password in a loop',
    text: 'for i in web1 web2 web3; do sshpass -p "ugJwp*goA5u." ssh -o StrictHostKeyChecking=no ops@$i uptime; done',
  },
  {
    id: 'v3-cli-password-curl-u',
    family: 'cli-password',
    note: 'curl -u user:password',
    text: 'curl -s -u reporting:p9rFdRn4#Z2Luz https://erp.example-shop.com/api/reports/daily > daily.json',
  },
  {
    id: 'v3-cli-password-pgpassword-env',
    family: 'cli-password',
    note: 'PGPASSWORD=... prefix on a pg_dump command in a crontab',
    text: 'Nightly export (cron on backup01):\n0 2 * * * PGPASSWORD=5ZvZR1RIXZqvD35n pg_dump -h pg-prod-2 -U backup shop | gzip > /srv/backup/shop.sql.gz',
  },
  {
    id: 'v3-cli-password-htpasswd-b',
    family: 'cli-password',
    note: 'htpasswd -b with the password as positional argument',
    text: 'Add the auditor to the staging basic auth: sudo htpasswd -b /etc/nginx/.htpasswd auditor 9q!!oZsuKwaf',
  },
  {
    id: 'v3-cli-password-net-use',
    family: 'cli-password',
    note: 'Windows net use with /user: and password as the next argument',
    text: 'Map the scans share on the reception PC:\nnet use S: \\\\fs01\\scans /user:CORP\\reception 3BeuDrhL+LZ8 /persistent:yes',
  },
  {
    id: 'v3-cli-password-openssl-passout',
    family: 'cli-password',
    note: 'openssl -passout pass:...',
    text: 'openssl pkcs12 -export -in shop.crt -inkey shop.key -out shop.pfx -passout pass:NXn_ExLyz8X4ZN',
  },
  {
    id: 'v3-cli-password-redis-cli-a',
    family: 'cli-password',
    note: 'redis-cli -a password',
    text: 'flush the session cache: redis-cli -h cache01 -a kuZ7H1YkehIlr9 --no-auth-warning FLUSHDB',
  },
  {
    id: 'v3-cli-password-sqlcmd-P',
    family: 'cli-password',
    note: 'sqlcmd -P password',
    text: 'sqlcmd -S sql01.corp.local -U sa -P "mJ7PMy-9yXJkB" -Q "DBCC CHECKDB(Shop)"',
  },
  {
    id: 'v3-cli-password-smbclient-percent',
    family: 'cli-password',
    note: 'smbclient -U user%password',
    text: 'smbclient //nas02/archive -U backup%tXHdNmvFHE+4 -c "ls"',
  },
  {
    id: 'v3-cli-password-keytool-storepass',
    family: 'cli-password',
    note: 'keytool -storepass',
    text: 'keytool -importcert -alias partner -file partner.cer -keystore truststore.jks -storepass NiB90Gz05Rup -noprompt',
  },
  {
    id: 'v3-cli-password-powershell-securestring',
    family: 'cli-password',
    note: 'PowerShell ConvertTo-SecureString with plain-text password',
    text: "$pw = ConvertTo-SecureString 'rx9aVI*UqskS-9' -AsPlainText -Force\n$cred = New-Object System.Management.Automation.PSCredential ('CORP\\svc_print', $pw)",
  },
  {
    id: 'v3-cli-password-ldapsearch-w',
    family: 'cli-password',
    note: 'ldapsearch -w password',
    text: 'ldapsearch -x -H ldaps://dc01.corp.local -D "cn=svc-kb,ou=svc,dc=corp,dc=local" -w DVDQ2VLJnW84 -b "dc=corp,dc=local" "(mail=*)"',
  },
  {
    id: 'v3-cli-password-rabbitmqctl-add-user',
    family: 'cli-password',
    note: 'rabbitmqctl add_user with password positional',
    text: 'rabbitmqctl add_user orders TjRHBxLM%7uw && rabbitmqctl set_user_tags orders monitoring',
  },
  {
    id: 'v3-url-credentials-redis-empty-user',
    family: 'url-credentials',
    note: 'redis URL with empty user and password',
    text: 'SESSION_STORE=redis://:NMBGlmSrtRkqd8s1fw7M@cache01.internal:6379/2',
  },
  {
    id: 'v3-url-credentials-amqp',
    family: 'url-credentials',
    note: 'amqp URL with user and password',
    text: 'celery broker: amqp://orders:NTsNAvoV2npWBU2m@mq01.internal:5672/shop',
  },
  {
    id: 'v3-url-credentials-oracle-ez-connect',
    family: 'url-credentials',
    note: 'Oracle EZConnect user/password@//host:port/service',
    text: 'sqlplus shop_app/3bNPaUcvXpcB@//ora-prod.internal:1521/SHOPPDB',
  },
  {
    id: 'v3-url-credentials-mongodb-srv',
    family: 'url-credentials',
    note: 'mongodb+srv URL with credentials',
    text: 'MONGO_URI="mongodb+srv://kb-reader:kxDrm2QTBfZDkhD9q6@cluster0.x7k2p.mongodb.net/kb?retryWrites=true&w=majority"',
  },
  {
    id: 'v3-url-credentials-jdbc-sqlserver',
    family: 'url-credentials',
    note: 'JDBC SQL Server URL with password property',
    text: 'spring.datasource.url=jdbc:sqlserver://sql01.corp.local:1433;databaseName=Shop;user=shop_app;password=RCFDjk*QV3Vy#$;encrypt=true',
  },
  {
    id: 'v3-url-credentials-jdbc-mysql-query',
    family: 'url-credentials',
    note: 'JDBC MySQL URL with password query parameter',
    text: 'jdbc:mysql://db01.internal:3306/shop?user=report&password=5TFHR4Gkh0wcME&useSSL=true',
  },
  {
    id: 'v3-url-credentials-ftp',
    family: 'url-credentials',
    note: 'ftp URL with credentials in prose',
    text: 'Supplier drops the price list at ftp://pricelists:kC0iwrrVK6e@ftp.supplier-example.net/incoming/ every Monday.',
  },
  {
    id: 'v3-url-credentials-postgres-encoded-at',
    family: 'url-credentials',
    note: 'postgres URL whose password contains a percent-encoded @ (%40)',
    text: 'DATABASE_URL=postgresql://shop:UA4OjtPWvft3%40e3LS@pg-prod-2.internal:5432/shop?sslmode=require',
  },
  {
    id: 'v3-url-credentials-git-remote-oauth2',
    family: 'url-credentials',
    note: 'git remote URL with a GitLab PAT as password',
    text: 'git remote set-url origin https://oauth2:glpat-JS9d_sbQ2Kq0HbVlSPr1@gitlab.example-shop.com/support/kb.git',
  },
  {
    id: 'v3-url-credentials-smtp-url',
    family: 'url-credentials',
    note: 'Symfony mailer DSN with encoded user and password',
    text: 'MAILER_DSN=smtp://noreply%40example-shop.com:Poiwfo2vzATp1G@smtp.office365.com:587',
  },
  {
    id: 'v3-url-credentials-oracle-tns-sqlplus-slash',
    family: 'url-credentials',
    note: 'Oracle user/password@TNS-descriptor form',
    text: 'connect string for Toad: SHOP_RO/gHc3xOkpVdMq@(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=ora-prod)(PORT=1521))(CONNECT_DATA=(SERVICE_NAME=SHOPPDB)))',
  },
  {
    id: 'v3-prose-password-german-lautet',
    family: 'prose-password',
    note: 'German: "das Passwort ... lautet ..."',
    text: 'Hallo zusammen, das Passwort f\u00FCr den Drucker-Admin lautet YF7-mPq2-Rt9w, bitte nicht weitergeben.',
  },
  {
    id: 'v3-prose-password-french-guillemets',
    family: 'prose-password',
    note: 'French: "le mot de passe est \u00AB ... \u00BB"',
    text: 'Pour le routeur de la boutique, le mot de passe est \u00AB Lune#Njjcy70 \u00BB (sensible \u00E0 la casse).',
  },
  {
    id: 'v3-prose-password-spanish',
    family: 'prose-password',
    note: 'Spanish: "la contrase\u00F1a es ..."',
    text: 'Para entrar al panel del TPV, la contrase\u00F1a es tortuga.Hsynb34 y el usuario es tienda.',
  },
  {
    id: 'v3-prose-password-italian',
    family: 'prose-password',
    note: 'Italian: "la password \u00E8 ..."',
    text: 'Per il Wi-Fi del magazzino la password \u00E8 Tkdqyw!559, rete "Magazzino-5G".',
  },
  {
    id: 'v3-prose-password-portuguese',
    family: 'prose-password',
    note: 'Portuguese: "a senha ... \u00E9 ..."',
    text: 'Oi! A senha do portal do fornecedor \u00E9 eajn8096MV \u2014 troquei ontem.',
  },
  {
    id: 'v3-prose-password-dutch',
    family: 'prose-password',
    note: 'Dutch: "het wachtwoord ... is ..."',
    text: 'Het wachtwoord van de kassa-beheerder is nu Hqgodh96?vi.',
  },
  {
    id: 'v3-prose-password-polish',
    family: 'prose-password',
    note: 'Polish: "has\u0142o ... to ..."',
    text: 'Has\u0142o do panelu sklepu to Bxfay_5983, login: sklep-admin.',
  },
  {
    id: 'v3-prose-password-japanese',
    family: 'prose-password',
    note: 'Japanese: "\u30D1\u30B9\u30EF\u30FC\u30C9\u306F\u300C...\u300D\u3067\u3059"',
    text: '\u7BA1\u7406\u753B\u9762\u306E\u30D1\u30B9\u30EF\u30FC\u30C9\u306F\u300Cphz9422JHE\u300D\u3067\u3059\u3002\u30E6\u30FC\u30B6\u30FC\u540D\u306F admin \u3067\u3059\u3002',
  },
  {
    id: 'v3-prose-password-russian',
    family: 'prose-password',
    note: 'Russian: "\u041F\u0430\u0440\u043E\u043B\u044C ...: ..."',
    text: '\u041F\u0430\u0440\u043E\u043B\u044C \u043E\u0442 \u0440\u043E\u0443\u0442\u0435\u0440\u0430 \u0432 \u043E\u0444\u0438\u0441\u0435: Xngxtl708#, \u043B\u043E\u0433\u0438\u043D admin.',
  },
  {
    id: 'v3-prose-password-pw-for-vpn',
    family: 'prose-password',
    note: 'abbreviated "pw for the vpn: ..."',
    text: 'pw for the vpn: sxipi384GZ (same as last quarter +1)',
  },
  {
    id: 'v3-prose-password-creds-slash',
    family: 'prose-password',
    note: '"creds: user / pass"',
    text: 'creds: svc_backup / Pndbdge37$ \u2014 they are in the old KeePass too',
  },
  {
    id: 'v3-prose-password-login-is-pass-is',
    family: 'prose-password',
    note: '"login is admin, pass is ..."',
    text: 'for the label printer web UI, login is admin, pass is vcso7416ev',
  },
  {
    id: 'v3-prose-password-chat-answer-next-line',
    family: 'prose-password',
    note: 'password given as a bare reply on the next chat line, no keyword on that line',
    text: '[10:42] alice: what is the root pw on the staging db?\n[10:43] bob: 08~+TpqbnXp\n[10:43] alice: thx',
  },
  {
    id: 'v3-prose-password-qa-format',
    family: 'prose-password',
    note: 'FAQ: answer line holds the password, keyword in the question line',
    text: 'Q: Which password does the reception tablet use?\nA: Ooumkjx1731\nQ: And the guest wifi?\nA: It is printed on the card at the desk.',
  },
  {
    id: 'v3-prose-password-passphrase-words',
    family: 'prose-password',
    note: 'diceware-style passphrase of plain words, no digits or symbols',
    text: 'The unseal passphrase for the backup vault is: lantern orchard velvet quarry sprocket',
  },
  {
    id: 'v3-prose-password-wifi-psk-qr',
    family: 'prose-password',
    note: 'Wi-Fi QR payload with a pre-shared key',
    text: 'Scan this with the tablet: WIFI:T:WPA;S:Warehouse-5G;P:umop741FWY!;;',
  },
  {
    id: 'v3-prose-password-inline-code-sign-in',
    family: 'prose-password',
    note: 'password given only as inline code after "with", no "password" word',
    text: 'Sign in as `root` with `J#OMsD8QNj~B` and then change it right away.',
  },
  {
    id: 'v3-prose-password-alarm-code-spaced',
    family: 'prose-password',
    note: '6-digit alarm code with spaces between digits',
    text: 'Alarm disarm code for the back door: 2 3 5 7 2 6 (press # after).',
  },
  {
    id: 'v3-prose-password-netrc',
    family: 'prose-password',
    note: '.netrc entry with multi-line machine/login/password',
    text: '~/.netrc on the deploy box:\nmachine api.example-shop.com\n  login deploy\n  password S-CdIpd-hyK+8_j0',
  },
  {
    id: 'v3-prose-password-pgpass',
    family: 'prose-password',
    note: '.pgpass line host:port:db:user:password',
    text: '~/.pgpass: pg-prod-2.internal:5432:shop:backup:N17vioIvnlPzqMQsmc',
  },
  {
    id: 'v3-split-token-halves-in-prose',
    family: 'split-token',
    note: 'GitHub PAT split into two halves in one sentence',
    text: 'I will not paste the whole thing: the first half is ghp_JsTtNppfXXc7kCi8 and the rest is 0pG7StdL3VdnNY3JppOd, join them without a space.',
  },
  {
    id: 'v3-split-token-two-chat-messages',
    family: 'split-token',
    note: 'Slack bot token split across two chat messages',
    text: '[09:01] ops-bot: new slack bot token part 1 \u2192 xoxb-96694408951-6102047486375-NJtZHRZso\n[09:01] ops-bot: part 2 \u2192 2sGG4Mju1RqZ9rh',
  },
  {
    id: 'v3-split-token-table-rows',
    family: 'split-token',
    note: 'Stripe key split over three markdown table rows',
    text: '| # | chunk |\n|---|---|\n| 1 | sk_live_517VC5X5GpEMJuxHIeiTJLLdCqx2 |\n| 2 | R8OMsyVe9cwLMBEUGC0FieznfAkDacl5XHUa |\n| 3 | BxskqhkjUPbM7j1IUndqulYt8JGiDmDqLKg |',
  },
  {
    id: 'v3-split-token-markdown-bold-inside',
    family: 'split-token',
    note: 'GitHub PAT interleaved with bold/italic markdown markers',
    text: 'Token for the release bot: **ghp_vbhfI5a3**hTRisGpxLx7wbFOx*v6xx4z3BLby8*',
  },
  {
    id: 'v3-split-token-markdown-escaped-underscores',
    family: 'split-token',
    note: 'markdown backslash-escaped underscores in sk_live_ prefix',
    text: 'Production key (escaped for the wiki): sk\\_live\\_FzPEpoSlTxme1c5rMCFVoq7i',
  },
  {
    id: 'v3-split-token-html-wbr',
    family: 'split-token',
    note: 'fine-grained GitHub PAT with <wbr> tags every 16 characters (copied from web UI HTML)',
    text: '<p>PAT: <code>github_pat_113WN<wbr>X1KV4YZO8N815ZJ9<wbr>G_fOzWra4efvWzeY<wbr>vrkTVWLqoMCsilVq<wbr>We5NBDsMJkmgJSyt<wbr>f11qJHtlFFJ43</code></p>',
  },
  {
    id: 'v3-split-token-ansi-color',
    family: 'split-token',
    note: 'GitLab PAT with ANSI color escape sequences in the middle',
    text: 'terminal paste:\n$ glab auth status\n  Token: \u001B[1;32mglpat-S5hf\u001B[0m\u001B[1;32mAY2qQJb67Vqu4WYk\u001B[0m',
  },
  {
    id: 'v3-split-token-terminal-box-wrap',
    family: 'split-token',
    note: 'OpenAI project key wrapped at 40 columns inside a box-drawing frame',
    text: '\u250C\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2510\n\u2502 sk-proj-F1mawDWouWHeCostT8rvuy2BxAxiG20W     \u2502\n\u2502 GV4i5sdFoqHpVvjoBv4ump2P45XSt86t09Ai77If     \u2502\n\u2502 UTT3BlbkFJwPaDqAu3jklTmHJejYwMQWETDdIapN     \u2502\n\u2502 IIktipWiuwX8yQEObJ1COUVtEH-Riq8Pi8j8ObK9     \u2502\n\u2502 QVBv                                         \u2502\n\u2514\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2518',
  },
  {
    id: 'v3-split-token-js-array-join',
    family: 'split-token',
    note: 'Anthropic key as array elements joined at runtime',
    text: 'const ANTHROPIC_KEY = [\n  "sk-ant-",\n  "api03-SV5RNT8ZjfgNxxRxkG_gywQOxl-q6PouD9Spd",\n  "luSNBxkiDH5Y64suQlshHPlctg3qHSg7wzvvsHStudQkkMMrmoAclJMRAA",\n].join("");',
  },
  {
    id: 'v3-split-token-shell-var-concat',
    family: 'split-token',
    note: 'Stripe restricted key built from two shell variables',
    text: 'P1=rk_live\nP2=51IBO4U5Is0l5a2B5zPT3xDTcwJcG4IV8mCgOvysE63G7ghgSbxDRaYZ3m7F78YreNveTGSiv11POjgcgZIYWcDhqOiLkOaYqMc\nexport STRIPE_RESTRICTED="${P1}_${P2}"',
  },
  {
    id: 'v3-split-token-reversed',
    family: 'split-token',
    note: 'GitHub PAT written backwards',
    text: 'token, reversed so the bot does not eat it (flip it back): mfiuC3Du7lWSvYxkE2YuNFVsytUf3RejjrjQ_phg',
  },
  {
    id: 'v3-provider-token-github-fine-grained-yaml-comment',
    family: 'provider-token',
    note: 'fine-grained GitHub PAT in a commented-out YAML line',
    text: 'jobs:\n  sync:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        # with:\n        #   token: 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\n',
  },
  {
    id: 'v3-provider-token-slack-webhook-split-path',
    family: 'provider-token',
    note: 'Slack webhook URL: base and secret path given separately',
    text: 'alerts go to base https://hooks.slack.com/services/ + path T9QEE63OS/BWUWNE5U49S/4Qk5qJeQEJiG0a29seE4e64f',
  },
  {
    id: 'v3-provider-token-openai-python-implicit-concat',
    family: 'provider-token',
    note: 'OpenAI project key split over Python implicit string concatenation (no +)',
    text: 'client = OpenAI(\n    api_key=("sk-proj-y-7ZoMVbW6auzyR7TtiPMyI-pVviLrEVwE3oIgDN-ua8sDHsUwRs"\n             "tcHaboan7jPFTehRhmsZkrT3BlbkFJNRxMrTln5XNsYVoQIWLBEEcL65uMcS"\n             "6DjRVM5-GKk_9WpG28KEYZCsUQRIDQk-xYVTSca4sj8H")\n)',
  },
  {
    id: 'v3-provider-token-anthropic-curl-continuation',
    family: 'provider-token',
    note: 'Anthropic key broken by a backslash-newline inside a quoted header',
    text: 'curl https://api.anthropic.com/v1/messages \\\n  -H "x-api-key: sk-ant-api03-2ywGghM2Qmha6s-n9AlQocZBiVAOXmIE3x9Q1in0q\\\ntIpBGUFn-fscM5BOUEAMmKI24hElq38nW1yRS3JhFIb4W--88lnzAA" \\\n  -H "anthropic-version: 2023-06-01"',
  },
  {
    id: 'v3-provider-token-google-android-xml',
    family: 'provider-token',
    note: 'Google API key in Android strings.xml under a neutral name',
    text: '<resources>\n    <string name="app_name">Shop</string>\n    <string name="maps_ref" translatable="false">AIzaSyP780wYIyxRdnPsfcpD3n0q5E2z35zsHqS</string>\n</resources>',
  },
  {
    id: 'v3-provider-token-sendgrid-php-dots',
    family: 'provider-token',
    note: 'SendGrid key assembled with implode(".") from its three parts',
    text: "$mailer = new \\SendGrid(implode('.', ['SG', '2veEJ2r10gJvTvl9-MAspH', 'TuRs3dgeT2TWOrOw8aaBujT-lzvjq7JurMWKCJY0FY2']));",
  },
  {
    id: 'v3-provider-token-twilio-dotnet-config',
    family: 'provider-token',
    note: 'Twilio account SID plus 32-hex auth token under neutral names',
    text: '<appSettings>\n  <add key="Sms.Account" value="AC844ef1bf4011e23abbb08d201cb55a2e" />\n  <add key="Sms.Secret" value="1758987fb9cf7c72caa148076906e9d1" />\n</appSettings>',
  },
  {
    id: 'v3-provider-token-npmrc-authtoken',
    family: 'provider-token',
    note: 'npm automation token in .npmrc',
    text: '.npmrc in the repo root:\n@example-shop:registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=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',
  },
  {
    id: 'v3-provider-token-jwt-in-log-line',
    family: 'provider-token',
    note: 'HS256 JWT with real-looking claims (30-day expiry, refund scope) in a log line',
    text: '2025-06-11T09:14:22.381Z INFO  http  req=GET /api/orders?page=2 hdr.authorization="Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJodHRwczovL2F1dGguZXhhbXBsZS1zaG9wLmNvbS8iLCJzdWIiOiJhdXRoMHwxYWYzODM2MmI5YjAwMWZkMGMwMjI5YzUiLCJhdWQiOiJodHRwczovL2FwaS5leGFtcGxlLXNob3AuY29tIiwiZW1haWwiOiJrLm1leWVyQGV4YW1wbGUtc2hvcC5jb20iLCJzY29wZSI6Im9yZGVyczpyZWFkIG9yZGVyczp3cml0ZSByZWZ1bmRzOmNyZWF0ZSIsImlhdCI6MTc5NTcxNjIxOCwiZXhwIjoxNzk4MzA4MjE4fQ.c_xZBN1pFrXk1a8m5AgXwWfTvw9_7nmTncwo2_mxjss" status=200 dur=41ms',
  },
  {
    id: 'v3-provider-token-azure-conn-string-spaced',
    family: 'provider-token',
    note: 'Azure storage connection string with spaces around = and ; and one part per line',
    text: 'Storage (from the portal, I added line breaks for readability):\nDefaultEndpointsProtocol = https ;\nAccountName = shopassets01 ;\nAccountKey = UQO6cX7xabulRQHZZmTDvjniIWkPwjFWNd76gLucDPymYsbkZPPESwk/LMYObTZIGcV+KQwnX/7riRdCoTH0KQ== ;\nEndpointSuffix = core.windows.net',
  },
  {
    id: 'v3-provider-token-azure-sas-url',
    family: 'provider-token',
    note: 'Azure SAS URL with a long-lived signature',
    text: 'Download link for the export (valid a year): https://shopassets01.blob.core.windows.net/exports/orders-2025.csv?sv=2022-11-02&ss=b&srt=o&sp=rl&se=2026-06-30T00:00:00Z&st=2025-06-01T00:00:00Z&spr=https&sig=wI536ZorbRLtvSiMGqheRoB4SBf5VUAGV53up7pjCx8%3D',
  },
  {
    id: 'v3-provider-token-telegram-bot-url',
    family: 'provider-token',
    note: 'Telegram bot token inside the API URL path',
    text: 'Order notifications: POST https://api.telegram.org/bot9016872362:AARlm_0H6k5xByMC8iaZXK0I6xJEl2NSkEm/sendMessage with chat_id=-1007489913555',
  },
  {
    id: 'v3-provider-token-huggingface-env-export',
    family: 'provider-token',
    note: 'Hugging Face token on the line after a shell line continuation',
    text: 'export HUGGING_FACE_HUB_TOKEN=\\\n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',
  },
  {
    id: 'v3-provider-token-digitalocean-terraform',
    family: 'provider-token',
    note: 'DigitalOcean token in Terraform provider block',
    text: 'provider "digitalocean" {\n  token = "dop_v1_840880173709510c0622f37f5436fcfff307bf246a0b7717e0d02ca35e7ee81e"\n}',
  },
  {
    id: 'v3-provider-token-shopify-header',
    family: 'provider-token',
    note: 'Shopify admin access token as an HTTP header',
    text: 'X-Shopify-Access-Token: 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',
  },
  {
    id: 'v3-provider-token-vault-token-file',
    family: 'provider-token',
    note: 'HashiCorp Vault service token as printed by cat (no trailing newline, prompt glued)',
    text: '$ cat ~/.vault-token\nhvs.CAESI08t4vyROoyCyGSgVtSeO9V-pchI9p1hJSg8iwFUSRZMNuK4eWTkjGL4zS1nuTmU46WU2F8Ei41WsCOAFa2LStY$ ',
  },
  {
    id: 'v3-provider-token-age-secret-key',
    family: 'provider-token',
    note: 'age secret key (bech32 with valid checksum)',
    text: '# created: 2025-05-02T10:11:12+02:00\n# public key: age1s5xvmp84m0wqgeqp6jfgd8q8f9qhwd0rjke5648z3ntsxkk2fqhs7w47sz\nAGE-SECRET-KEY-1QQT9ME57GLM4YNTLPH6CSZ96AZA0CP4HZM7PN0SCN3LD08NJ449SV5CVSX',
  },
  {
    id: 'v3-provider-token-postman-api-key',
    family: 'provider-token',
    note: 'Postman API key',
    text: 'Postman monitor \u2192 settings \u2192 x-api-key = PMAK-da3ab54c36ecccc545d8e0fa-02cf56aaa9c9eacb7c0bb0ce4c47ef3863',
  },
  {
    id: 'v3-provider-token-discord-webhook',
    family: 'provider-token',
    note: 'Discord webhook URL defanged as hxxps://',
    text: 'Community alerts: hxxps://discord.com/api/webhooks/1003895334281414167/aZTub_A9JTSVglken_RfHlpNHzPJ9OPtX2c19KsxzMtnjUHF4E1JMo7jYjAX_Z6zDn0l',
  },
  {
    id: 'v3-provider-token-otpauth-totp-seed',
    family: 'provider-token',
    note: 'TOTP seed in an otpauth:// URI',
    text: 'Shared 2FA for the supplier portal (add to your authenticator): otpauth://totp/SupplierPortal:ops%40example-shop.com?secret=ZBQNOOBQQYEKU4PWR2T3HPWUEKUZ7W42&issuer=SupplierPortal',
  },
  {
    id: 'v3-provider-token-pypirc',
    family: 'provider-token',
    note: 'PyPI API token in .pypirc',
    text: '[pypi]\n  username = __token__\n  password = pypi-AgEIcHlwaS5vcmcCJtJFfKGMIG9WunSHvCnZosIF0fZdLgjrJKRgCbnqP3zxKlVd_Q5P-3h-R-p3WRDh5wUZc3X-QUUzQGMrx0-E0UWKV2wewsPAXuEd6NozeC-hAePuE8InR31dNTkFOCa_kwv63CKDLcftbQ0F-lK3QSO',
  },
  {
    id: 'v3-provider-token-mailgun-curl-api-user',
    family: 'provider-token',
    note: 'Mailgun key as curl --user api:key',
    text: "curl -s --user 'api:key-f3ad132f7d829b5383422b9c6d6a4b61' https://api.eu.mailgun.net/v3/mg.example-shop.com/messages -F to=ops@example-shop.com",
  },
  {
    id: 'v3-provider-token-square-bearer-yaml',
    family: 'provider-token',
    note: 'Square production access token in a YAML folded scalar after "Bearer" on its own line',
    text: 'square:\n  environment: production\n  access: >-\n    Bearer\n    EAAAWkP4qTw0uZYuiZsSD1WFXmCU2ZpWHn3SM27Zh42rjsQW1lu3kXUHA4YGaCU_',
  },
  {
    id: 'v3-provider-token-linear-key-fullwidth-colon',
    family: 'provider-token',
    note: 'Linear API key after a fullwidth colon in Japanese text',
    text: 'Linear \u30AD\u30FC\uFF1Alin_api_NBYxaFHCZPCK7WsqnVthhqn91bStbwF14l9r00qj',
  },
  {
    id: 'v3-provider-token-doppler-service-token',
    family: 'provider-token',
    note: 'Doppler service token as CLI flag',
    text: 'doppler run --token dp.pt.ecsnTziOnPnXizCTtUti3ZYNmVCznWTUuTDVntJ286c -- npm start',
  },
  {
    id: 'v3-card-number-middle-dot-separators',
    family: 'card-number',
    note: 'Visa with " \u00B7 " (space, middle dot, space) separators',
    text: 'Customer card for the manual refund: 4972 \u00B7 0140 \u00B7 1963 \u00B7 7591, exp 09/27',
  },
  {
    id: 'v3-card-number-words-and-digits',
    family: 'card-number',
    note: 'Visa whose first group is spelled out in words, rest digits',
    text: 'caller read the card as: four-five-four-zero 7231 3771 7191',
  },
  {
    id: 'v3-card-number-all-words-transcript',
    family: 'card-number',
    note: 'Mastercard spelled out entirely in English words',
    text: 'Transcript (call 4471): "yeah the number is five one six three two two seven two two three two six four zero zero four, expiry March twenty-eight"',
  },
  {
    id: 'v3-card-number-split-across-lines',
    family: 'card-number',
    note: '2-series Mastercard split over two lines with a "(continued)" marker',
    text: 'card (from the fax):\n2271 8898\n(continued) 3706 4280',
  },
  {
    id: 'v3-card-number-amex-en-dash',
    family: 'card-number',
    note: 'Amex 4-6-5 grouping with en dashes',
    text: 'Amex on file: 3799\u2013498022\u201384654',
  },
  {
    id: 'v3-card-number-arabic-indic-digits',
    family: 'card-number',
    note: 'Visa written in Arabic-Indic digits (U+0660..U+0669), which NFKC keeps',
    text: '\u0631\u0642\u0645 \u0627\u0644\u0628\u0637\u0627\u0642\u0629: \u0664\u0666\u0660\u0669 \u0669\u0665\u0664\u0660 \u0661\u0662\u0668\u0662 \u0666\u0668\u0661\u0669',
  },
  {
    id: 'v3-card-number-glued-to-letters',
    family: 'card-number',
    note: 'Discover number glued to letters on both sides (no word boundary)',
    text: 'payment ref card#6011642062470755exp0827cvv828',
  },
  {
    id: 'v3-card-number-table-one-group-per-cell',
    family: 'card-number',
    note: 'Visa with one group per markdown table cell',
    text: '| g1 | g2 | g3 | g4 |\n|----|----|----|----|\n| 4214 | 1971 | 2801 | 5755 |',
  },
  {
    id: 'v3-card-number-letter-lookalike-digits',
    family: 'card-number',
    note: 'Visa where 0 is the letter O and 1 is the letter l (OCR style)',
    text: 'OCR of the order form: card 4586 53OO 725l 3963',
  },
  {
    id: 'v3-card-number-devanagari-digits',
    family: 'card-number',
    note: 'Mastercard in Devanagari digits',
    text: '\u0915\u093E\u0930\u094D\u0921 \u0928\u0902\u092C\u0930: \u096B\u0969\u096F\u0968\u096C\u096A\u0968\u0967\u0969\u0969\u0967\u096E\u096F\u096C\u096A\u0967',
  },
  {
    id: 'v3-card-number-first-last-split-prose',
    family: 'card-number',
    note: 'Amex split in prose into "starts with" / "ends with" parts',
    text: 'Card starts with 37164430 and ends with 4889914, name on card M. Okafor.',
  },
  {
    id: 'v3-personal-data-ssn-dump-odd-separators',
    family: 'personal-data',
    note: 'customer dump with US SSNs written with spaces and ";;" column separators',
    text: 'export from the old CRM (name ;; email ;; ssn ;; dob):\nAna Ruiz ;; ana.ruiz@mail-example.net ;; 353 62 2575 ;; 1982/01/14\nTom Becker ;; tom.becker@mail-example.net ;; 239 91 4779 ;; 1984/08/15\nLi Wei ;; li.wei@mail-example.net ;; 641 22 8018 ;; 1989/08/11\nSara Okafor ;; sara.okafor@mail-example.net ;; 351 73 1907 ;; 1979/06/17\nJonas Berg ;; jonas.berg@mail-example.net ;; 158 64 3653 ;; 1983/03/16\nMia Novak ;; mia.novak@mail-example.net ;; 215 39 4683 ;; 1961/08/10',
  },
  {
    id: 'v3-personal-data-card-dump-tsv',
    family: 'personal-data',
    note: 'TSV of names with card numbers (dotted groups) and expiries',
    text: 'name\tcard\texp\nHenrik Lund\t4115.3338.3838.7933\t07/21\nPaula Costa\t4152.7468.8858.7041\t04/24\nOmar Haddad\t4587.4651.5586.6757\t04/26\nGreta Vogel\t4416.6207.7247.2366\t07/20\nRavi Nair\t4768.4252.0821.8837\t03/24',
  },
];

export const SUPPORT_TEXTS_V3: SupportText[] = [
  {
    id: 'v3-ok-password-reset-steps',
    text: 'To reset your password: 1) open https://app.example-shop.com/login, 2) click "Forgot password?", 3) enter the email on your account, 4) follow the link we send you within 30 minutes. The link can be used once.',
  },
  {
    id: 'v3-ok-password-policy',
    text: 'The password must be at least 12 characters long and include one digit and one symbol. It cannot contain your email address, and the last 5 passwords cannot be reused.',
  },
  {
    id: 'v3-ok-pin-entry',
    text: 'At the terminal, ask the customer to enter their PIN. If the terminal shows "PIN BLOCKED", the card issuer has locked it after 3 wrong attempts; the customer must contact their bank.',
  },
  {
    id: 'v3-ok-order-number',
    text: 'Order #A-2025-118734 was shipped on 11 June. The customer can track it under "My orders"; partial refunds for order 40021877 go through the returns desk.',
  },
  {
    id: 'v3-ok-tracking-numbers',
    text: 'Tracking: UPS 1Z84F2A10399218347, DHL 4921039933, FedEx 771329402615. If the status stays on "label created" for 48 h, open a carrier claim.',
  },
  {
    id: 'v3-ok-creditor-reference',
    text: 'For bank transfers always quote the payment reference RF71 4200 1234 5678 9, otherwise the finance team cannot match the payment to your invoice INV-2025-000123.',
  },
  {
    id: 'v3-ok-phone-numbers',
    text: 'Support hotline: +49 30 9018 2277 (Mon\u2013Fri 8\u201318), UK +44 20 7946 0321, US toll free 1-800-555-0134. Emergency line for outages: +1 (415) 555-0172.',
  },
  {
    id: 'v3-ok-isbn',
    text: 'The handbook is "Customer Support at Scale", ISBN 978-3-16-148410-0; the second edition has ISBN-13 9781492078005.',
  },
  {
    id: 'v3-ok-uuid-urls',
    text: 'The broken article is https://help.example-shop.com/articles/3f6c2a8e-9b1d-4e7a-8c55-0d2f6e9a1b47 and the fixed copy is at /articles/b7e1d0c4-22a9-4f3e-9d61-7a8c5e4f0b12/edit.',
  },
  {
    id: 'v3-ok-git-commits',
    text: '## Release 2.14.3\n\n- fix: retry webhooks on 502 (a3f9c1e)\n- feat: bulk export of tickets (4e8b2d17c0a95f6e3b1d8c7a2f4e9b0c5d6a1e3f)\n- chore: bump dependencies (9c0d3e1)\n\nFull diff: https://github.com/example-shop/app/compare/2f7a91c4b0e3...9c0d3e1a6b58',
  },
  {
    id: 'v3-ok-sha256-checksum',
    text: 'Verify the installer before running it:\nSHA256 (shop-agent-2.14.3.msi) = ca7d4114bcbf13acbd9bfe18d282f1c4ac431e302840128b054d8a7c3cd7544a\nIf the checksum differs, do not install and contact IT.',
  },
  {
    id: 'v3-ok-docker-digest',
    text: 'services:\n  api:\n    image: registry.example-shop.com/shop/api@sha256:e51d0028e9e7ff2f39d3f1f454b17d9c5a12dd145c8f39dbd24984b738468fa9\n    restart: unless-stopped',
  },
  {
    id: 'v3-ok-npm-integrity',
    text: '"node_modules/left-pad": {\n  "version": "1.3.0",\n  "resolved": "https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz",\n  "integrity": "sha512-Y3PcnF9azdy3mf0w+8oU0PIbzicJMix5z9Oj+q1eA/+GBYOM7BfH2L3wqb+gGMFGRDlkRmmrXMgoNlJKDEbBrA=="\n}',
  },
  {
    id: 'v3-ok-placeholder-config',
    text: 'database:\n  host: db.internal\n  user: shop\n  password: <your-password>\nstripe:\n  secret_key: ${STRIPE_SECRET_KEY}\nsmtp:\n  password: "{{ vault_smtp_password }}"',
  },
  {
    id: 'v3-ok-env-template',
    text: '# .env.example \u2014 copy to .env and fill in\nDATABASE_URL=postgres://app:${DB_PASSWORD}@db:5432/app\nREDIS_URL=redis://cache:6379/0\nSENDGRID_API_KEY=<paste-your-key-here>\nGITHUB_TOKEN=',
  },
  {
    id: 'v3-ok-docker-no-password',
    text: 'To pull the images: run `docker login registry.example-shop.com` and enter your username and password when prompted. In CI use `echo "$REGISTRY_TOKEN" | docker login -u ci --password-stdin registry.example-shop.com`.',
  },
  {
    id: 'v3-ok-mysql-prompt',
    text: 'Connect with `mysql -h db01 -u root -p` \u2014 it will prompt for the password. Never put the password after -p in scripts; use an option file with mode 600 instead.',
  },
  {
    id: 'v3-ok-url-username-only',
    text: 'Clone with ssh://git@github.com/example-shop/app.git or https://alice@bitbucket.org/example-shop/app.git. The read replica is postgres://report@pg-replica.internal:5432/shop (password from the vault).',
  },
  {
    id: 'v3-ok-german-password-help',
    text: 'Haben Sie Ihr Passwort vergessen? Klicken Sie auf der Anmeldeseite auf \u201EPasswort vergessen\u201C. Ihr neues Passwort muss mindestens 12 Zeichen lang sein und darf nicht Ihrem alten Passwort entsprechen.',
  },
  {
    id: 'v3-ok-french-password-help',
    text: 'Si vous avez oubli\u00E9 votre mot de passe, cliquez sur \u00AB Mot de passe oubli\u00E9 \u00BB. Le mot de passe doit contenir au moins 12 caract\u00E8res, dont un chiffre et un symbole.',
  },
  {
    id: 'v3-ok-spanish-password-help',
    text: 'Si olvid\u00F3 su contrase\u00F1a, haga clic en \u00AB\u00BFOlvid\u00F3 su contrase\u00F1a?\u00BB en la pantalla de inicio. La contrase\u00F1a es personal: nunca se la pediremos por tel\u00E9fono ni por correo.',
  },
  {
    id: 'v3-ok-product-codes',
    text: 'Replacement parts: SKU-88412-BLK-XL (cover), PN 7731-0042-A (hinge), EAN 4006381333931. Bundle code BNDL-2025-SPRING.',
  },
  {
    id: 'v3-ok-version-strings',
    text: 'Affected versions: 2.14.0 to 2.14.2, and 3.0.0-rc.1+build.5521. Fixed in v2.14.3 (build 20250611.4) and agent 1.9.12-hotfix2.',
  },
  {
    id: 'v3-ok-hex-colours',
    text: 'Brand colours for the help-centre theme: primary #1A73E8, secondary #FF6F3C, text #202124, background #F8F9FA, error #D93025.',
  },
  {
    id: 'v3-ok-data-uri-image',
    text: '<img alt="status dot" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGOQKn7xHwAElQJ1OydWnwAAAABJRU5ErkJggg==" width="8" height="8">',
  },
  {
    id: 'v3-ok-ssh-public-key',
    text: 'To get access to the build server, send us your PUBLIC key only, e.g.\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAywviOvDf9URq6AbSHQmmocLXv4dKqY3oG46O05VFzf alice@laptop\nNever send the file without .pub.',
  },
  {
    id: 'v3-ok-certificate-pem',
    text: 'Partner asked for our public TLS certificate; here it is:\n-----BEGIN CERTIFICATE-----\nMIIBwzCCAWmgAwIBAgIUJsaQceD4Le7ISqrcUOUL4FwymY0wCgYIKoZIzj0EAwIw\nNzEeMBwGA1UEAwwVaGVscC5leGFtcGxlLXNob3AuY29tMRUwEwYDVQQKDAxFeGFt\ncGxlIFNob3AwHhcNMjYxMTI2MTc0NTEwWhcNMjcxMTI2MTc0NTEwWjA3MR4wHAYD\nVQQDDBVoZWxwLmV4YW1wbGUtc2hvcC5jb20xFTATBgNVBAoMDEV4YW1wbGUgU2hv\ncDBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABLo+4/gQ1CfLH1k7jOS36kJWbcos\npVKmCRX2xYI22G9M89GbQCE20uMnjjOgB5r+0zjzYoTzxh3w0Y9kIDv4h4ujUzBR\nMB0GA1UdDgQWBBQXlbK54C6H/2/cm3IY1NX7K7Xm5TAfBgNVHSMEGDAWgBQXlbK5\n4C6H/2/cm3IY1NX7K7Xm5TAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0gA\nMEUCIQDqWfuaf5fH5qxoUx7N/KIJQNw5b/AWilKEjh0qhbOD2wIgCaTlpBsfrxDL\nWcZI/L1+OHbZ2mB1lNcObftnp9sWikQ=\n-----END CERTIFICATE-----',
  },
  {
    id: 'v3-ok-akia-mentioned',
    text: 'AWS access key IDs start with AKIA or ASIA. If you see one in a ticket, do not copy it anywhere: rotate it in IAM and tell security.',
  },
  {
    id: 'v3-ok-redacted-tokens',
    text: 'The leaked token (ghp_****************************k2Qz) was revoked at 09:14. The Stripe key shown in the log as sk_live_\u2026[REDACTED] has been rolled.',
  },
  {
    id: 'v3-ok-card-last-four',
    text: 'Refund issued to the Visa ending in 4821 (card \u2022\u2022\u2022\u2022 \u2022\u2022\u2022\u2022 \u2022\u2022\u2022\u2022 4821). For Amex ending 1009 the refund takes up to 10 days.',
  },
  {
    id: 'v3-ok-imei',
    text: 'Device swap approved. Old device IMEI 86 994637 466270 2 (as printed on the box), new device IMEI 86-546442-981572-5.',
  },
  {
    id: 'v3-ok-non-luhn-16-digits',
    text: 'Your reference for the insurance claim is 4000 1234 5678 9011; quote it on every call.',
  },
  {
    id: 'v3-ok-password-in-1password',
    text: 'The admin password is kept in 1Password, vault "Ops \u2013 Shared", item "Shop admin". Ask in #it-access if you cannot see it.',
  },
  {
    id: 'v3-ok-session-token-prose',
    text: 'Your session token expires after 30 minutes of inactivity. After that the app asks you to sign in again; this is expected and not a bug.',
  },
  {
    id: 'v3-ok-placeholder-curl',
    text: 'curl -u "$API_USER:$API_TOKEN" https://erp.example-shop.com/api/reports/daily\n# or: curl -H "Authorization: Bearer <token>" ...',
  },
  {
    id: 'v3-ok-pgpassword-from-file',
    text: 'PGPASSWORD="$(cat /run/secrets/pg_backup)" pg_dump -h pg-prod-2 -U backup shop > shop.sql',
  },
  {
    id: 'v3-ok-sshpass-file',
    text: 'Use `sshpass -f ~/.ssh/ops.pass ssh ops@web1` (the file is mode 600) or better, switch to key-based login.',
  },
  {
    id: 'v3-ok-openssl-env-pass',
    text: 'openssl pkcs12 -export -in shop.crt -inkey shop.key -out shop.pfx -passout env:PFX_PASS',
  },
  {
    id: 'v3-ok-htpasswd-prompt',
    text: 'To add a user to staging basic auth run `sudo htpasswd /etc/nginx/.htpasswd alice`; it prompts twice for the password.',
  },
  {
    id: 'v3-ok-net-use-prompt',
    text: 'net use S: \\\\fs01\\scans /user:CORP\\reception * /persistent:yes  (the * makes Windows ask for the password)',
  },
  {
    id: 'v3-ok-redis-no-password',
    text: 'SESSION_STORE=redis://cache01.internal:6379/2 \u2014 the cache only listens on the private network, auth comes from the network policy.',
  },
  {
    id: 'v3-ok-oracle-prompt',
    text: 'Connect with `sqlplus shop_app@//ora-prod.internal:1521/SHOPPDB`; SQL*Plus asks for the password.',
  },
  {
    id: 'v3-ok-k8s-secret-ref',
    text: 'env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: shop-db\n        key: password',
  },
  {
    id: 'v3-ok-base64-config',
    text: 'ConfigMap binaryData for the banner text (base64):\nbanner.txt: V2VsY29tZSB0byB0aGUgRXhhbXBsZSBTaG9wIGhlbHAgY2VudHJlISBPcGVuaW5nIGhvdXJzOiBNb24tRnJpIDgtMTgu',
  },
  {
    id: 'v3-ok-hex-dump',
    text: 'The printer sends 1B 40 1B 61 01 48 65 6C 6C 6F 0A (ESC @, center, "Hello", LF) at start-up; that is normal.',
  },
  {
    id: 'v3-ok-mac-ip',
    text: 'Whitelisted devices: MAC 3C:22:FB:9A:41:0E at 10.20.4.17, and fe80::1c2b:3dff:fe4a:5e6f on the VLAN 40 port.',
  },
  {
    id: 'v3-ok-coupon-code',
    text: 'Use the coupon SPRING-2025-SAVE15 for 15% off; it cannot be combined with LOYALTY10. Gift card codes are never shown in tickets.',
  },
  {
    id: 'v3-ok-epoch-and-trace',
    text: 'Error at 1718035200000 (epoch ms), trace id 4bf92f3577b34da6a3ce929d0e0e4736, span 00f067aa0ba902b7. Stack: at Object.handler (/srv/app/dist/main.js:1:48213).',
  },
  {
    id: 'v3-ok-windows-guid',
    text: 'The policy lives at HKLM\\SOFTWARE\\Policies\\Example\\{6F9619FF-8B86-D011-B42D-00C04FC964FF}; set "AutoUpdate" to 1.',
  },
  {
    id: 'v3-ok-cjk-password-help',
    text: '\u30D1\u30B9\u30EF\u30FC\u30C9\u3092\u5FD8\u308C\u305F\u5834\u5408\u306F\u3001\u30ED\u30B0\u30A4\u30F3\u753B\u9762\u306E\u300C\u30D1\u30B9\u30EF\u30FC\u30C9\u3092\u304A\u5FD8\u308C\u3067\u3059\u304B\uFF1F\u300D\u3092\u30AF\u30EA\u30C3\u30AF\u3057\u3066\u304F\u3060\u3055\u3044\u3002\u30D1\u30B9\u30EF\u30FC\u30C9\u306F12\u6587\u5B57\u4EE5\u4E0A\u3067\u3042\u308B\u5FC5\u8981\u304C\u3042\u308A\u307E\u3059\u3002',
  },
  {
    id: 'v3-ok-password-case-sensitive',
    text: 'Note: the password is case-sensitive, and the username is not. If login fails three times, wait 15 minutes.',
  },
  {
    id: 'v3-ok-totp-help',
    text: 'Enter the 6-digit code from your authenticator app. If the code is rejected, check that the clock on your phone is set automatically.',
  },
  {
    id: 'v3-ok-german-lautet-no-value',
    text: 'Die Kundennummer lautet wie auf Ihrer Rechnung oben rechts angegeben. Das Passwort lautet niemals so wie die Kundennummer \u2013 bitte w\u00E4hlen Sie ein eigenes.',
  },
  {
    id: 'v3-ok-long-markdown-doc',
    text: '# Onboarding: support desk\n\n## Accounts\n\nYou get three accounts on day one: the help desk, the shop admin and the VPN. Each sends an invitation email; set a password of at least 12 characters when you accept it. Passwords are never shared in tickets, chat or this knowledge base: if someone asks, point them to the vault.\n\n## Tools\n\n| tool | URL | notes |\n|---|---|---|\n| Help desk | https://desk.example-shop.com | SSO with your work account |\n| Shop admin | https://admin.example-shop.com | role "support" |\n| Status page | https://status.example-shop.com | public |\n\n## Escalation\n\n1. Check the status page.\n2. Search the KB for the error code (for example `ERR_PAYMENT_DECLINED` or `E4012`).\n3. Escalate in #support-l2 with the ticket number (e.g. #128734) and the order number.\n\n## Refunds\n\nRefunds up to 150 EUR can be issued by any agent. Above that, ask a lead. The refund goes back to the original payment method; we only ever see the last four digits of a card.\n\n## Shortcuts\n\n- `Ctrl+Shift+R` \u2014 reply all\n- `g i` \u2014 go to inbox\n\nVersion 4.2 of this document, last reviewed 2025-06-01.',
  },
  {
    id: 'v3-ok-api-key-rotation-doc',
    text: 'How to rotate an API key: open Settings \u2192 API keys, click "Create key", copy it into your integration, then delete the old key. Keys are shown only once; if you lose one, create a new one. Keys start with a prefix such as sk_live_ or rk_live_ so you can tell them apart.',
  },
  {
    id: 'v3-ok-example-jwt-structure',
    text: 'A JWT has three base64url parts separated by dots: header.payload.signature. Paste only the payload part into a decoder if you need to check the expiry (the "exp" claim), never the whole token.',
  },
];
