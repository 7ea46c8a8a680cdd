// Shared steps of the e2e tests: open the app on a fresh profile, point Settings at a model endpoint.
import { expect, type Page } from '@playwright/test';

export const appUrl = () => {
  const url = process.env.E2E_APP_URL;
  if (!url) throw new Error('E2E_APP_URL is not set: run the e2e tests through playwright.config.ts (global setup).');
  return url;
};

export async function openBug(page: Page, bugId: string) {
  await page.goto(appUrl());
  await page.locator(`li[data-bug="${bugId}"]`).click();
  await expect(page.getByTestId('bug-detail')).toBeVisible();
}

export async function useModelEndpoint(page: Page, baseURL: string, model: string) {
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.locator('input[name="base-url"]').fill(baseURL);
  await page.locator('input[name="base-url"]').dispatchEvent('change');
  await page.locator('input[name="model"]').fill(model);
  await page.locator('input[name="model"]').dispatchEvent('change');
  await page.getByRole('button', { name: 'Bugs' }).click();
}
